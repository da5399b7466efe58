import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AccessContext } from '../../app/access/access-context';
import { Access, AnyPermission, CurrentAccess } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import {
  DecideScopeProposalDto,
  ListScopeProposalsQueryDto,
  ProposeScopeObjectDto,
  ScopeProposalDto,
  ScopeProposalPageDto,
} from './dto/scope-proposal.dto';
import { ScopeProposalsService } from './scope-proposals.service';

/** Scanners' proposals to the perimeter and the decisions on them. */
@ApiTags('scope')
@Controller(`${API_PREFIX}/projects/:id/scope/proposals`)
export class ScopeProposalsController {
  constructor(private readonly proposals: ScopeProposalsService) {}

  @Post()
  @Access({ permission: 'upload_report' })
  @ApiOperation({
    summary: 'Propose an object for the perimeter',
    description:
      '`upload_report` on the project. Widens nothing until confirmed. 201 for a new proposal; 200 with the existing one when the value was proposed before — a rejected proposal stays rejected (not reopened), a pending one counts again (times_proposed).',
  })
  @ApiDataResponse(ScopeProposalDto, { status: 201, description: 'A new proposal' })
  @ApiDataResponse(ScopeProposalDto, {
    status: 200,
    description: 'Proposed before: the existing proposal with its status',
  })
  @ApiErrorResponses(400, 401, 403, 404, 422, 429)
  async propose(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Body() body: ProposeScopeObjectDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ScopeProposalDto> {
    const { proposal, created } = await this.proposals.propose(access, projectId, {
      value: body.value,
      comment: body.comment?.trim() || null,
    });
    void reply.status(created ? 201 : 200);
    return ScopeProposalDto.from(proposal);
  }

  @Get()
  @AnyPermission()
  @ApiOperation({
    summary: 'Proposals (pending by default), oldest first',
    description: 'Any permission on the project. Keyset paging: follow next_cursor.',
  })
  @ApiDataResponse(ScopeProposalPageDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async list(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Query() query: ListScopeProposalsQueryDto,
  ): Promise<ScopeProposalPageDto> {
    const page = await this.proposals.list(access, projectId, query.status ?? 'pending', {
      cursor: query.cursor,
      limit: query.limit ?? 100,
    });
    return ScopeProposalPageDto.from(page);
  }

  @Post(':proposal_id/confirm')
  @HttpCode(200)
  @Access({ permission: 'manage_scope' })
  @ApiOperation({
    summary: 'Confirm a pending proposal: it becomes an include entry',
    description:
      '`manage_scope`. 422 scope_proposal_decided when it is not pending; 409 when the value would duplicate or overlap an entry (the proposal stays pending).',
  })
  @ApiDataResponse(ScopeProposalDto)
  @ApiErrorResponses(400, 401, 403, 404, 409, 422, 429)
  async confirm(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('proposal_id') proposalId: string,
    @Body() body: DecideScopeProposalDto,
  ): Promise<ScopeProposalDto> {
    return ScopeProposalDto.from(
      await this.proposals.confirm(access, projectId, proposalId, body.comment?.trim() || null),
    );
  }

  @Post(':proposal_id/reject')
  @HttpCode(200)
  @Access({ permission: 'manage_scope' })
  @ApiOperation({
    summary: 'Reject a pending proposal (it stays rejected)',
    description: '`manage_scope`. 422 scope_proposal_decided when it is not pending.',
  })
  @ApiDataResponse(ScopeProposalDto)
  @ApiErrorResponses(400, 401, 403, 404, 422, 429)
  async reject(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('proposal_id') proposalId: string,
    @Body() body: DecideScopeProposalDto,
  ): Promise<ScopeProposalDto> {
    return ScopeProposalDto.from(
      await this.proposals.reject(access, projectId, proposalId, body.comment?.trim() || null),
    );
  }
}
