import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { ApprovalService } from './approval.service';
import { ConflictsService } from './conflicts.service';
import {
  ApprovalResultDto,
  ApprovalRowDto,
  ConflictsResultDto,
  RejectDto,
  RejectionResultDto,
  RejectionRowDto,
  RequestIdsDto,
  SerialConflictDto,
} from './dto/approval.dto';
import { RejectionService } from './rejection.service';

@ApiTags('requests')
@Controller('api/v1/requests')
export class ApprovalController {
  constructor(
    private readonly approval: ApprovalService,
    private readonly rejection: RejectionService,
    private readonly conflicts: ConflictsService,
  ) {}

  /** Always 200 with one row per request, except a single request refused by the licence (402). */
  @Post('approve')
  @HttpCode(200)
  @Roles('cert-admin', 'cert-approver', 'cert-auto-approver')
  @ApiOkResponse({ type: ApprovalResultDto })
  async approve(
    @CurrentActor() actor: Actor,
    @Body() body: RequestIdsDto,
  ): Promise<ApprovalResultDto> {
    const rows = await this.approval.approve(actor, body.request_ids);
    return { results: rows.map(ApprovalRowDto.from) };
  }

  @Post('check-conflicts')
  @HttpCode(200)
  @Roles('cert-admin', 'cert-approver', 'cert-viewer', 'cert-auto-approver')
  @ApiOkResponse({ type: ConflictsResultDto })
  async checkConflicts(@Body() body: RequestIdsDto): Promise<ConflictsResultDto> {
    return {
      conflicts: (await this.conflicts.check(body.request_ids)).map(SerialConflictDto.from),
    };
  }

  @Post('reject')
  @HttpCode(200)
  @Roles('cert-admin')
  @ApiOkResponse({ type: RejectionResultDto })
  async reject(@CurrentActor() actor: Actor, @Body() body: RejectDto): Promise<RejectionResultDto> {
    const rows = await this.rejection.reject(actor, body.request_ids, body.reason ?? null);
    return { results: rows.map(RejectionRowDto.from) };
  }
}
