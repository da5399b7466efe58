import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { READER_ROLES } from '../../app/access/roles';
import { pageOf } from '../../app/http/paging.dto';
import {
  SshKeyDecisionDto,
  SshKeyDto,
  SshKeyPageDto,
  SshKeyQueryDto,
  SshKeyRevocationDto,
  sshKeyFilterOf,
} from './dto/ssh-key.dto';
import { SshKeysService } from './ssh-keys.service';

/** The fleet SSH key list and decisions: cert-admin only (reads included, specification). */
@ApiTags('ssh')
@Controller('api/v1')
export class SshKeysController {
  constructor(private readonly keys: SshKeysService) {}

  @Get('admin/ssh-keys')
  @Roles('cert-admin')
  @ApiOkResponse({ type: SshKeyPageDto })
  async list(@Query() query: SshKeyQueryDto): Promise<SshKeyPageDto> {
    const { page, limit, offset } = pageOf(query);
    const { items, total } = await this.keys.list(sshKeyFilterOf(query), limit, offset);
    return { items: items.map(SshKeyDto.fromRow), page, limit, total };
  }

  @Post('admin/ssh-keys/:id/approve')
  @Roles('cert-admin')
  @HttpCode(200)
  @ApiOkResponse({ type: SshKeyDto })
  async approve(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<SshKeyDto> {
    return SshKeyDto.fromRow(await this.keys.approve(actor, id));
  }

  @Post('admin/ssh-keys/:id/reject')
  @Roles('cert-admin')
  @HttpCode(200)
  @ApiOkResponse({ type: SshKeyDto })
  async reject(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: SshKeyDecisionDto,
  ): Promise<SshKeyDto> {
    return SshKeyDto.fromRow(await this.keys.reject(actor, id, body.reason ?? null));
  }

  @Post('admin/ssh-keys/:id/revoke')
  @Roles('cert-admin')
  @HttpCode(200)
  @ApiOkResponse({ type: SshKeyRevocationDto })
  async revoke(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: SshKeyDecisionDto,
  ): Promise<SshKeyRevocationDto> {
    const result = await this.keys.revoke(actor, id, body.reason ?? null);
    return { ...SshKeyDto.fromRow(result.row), outcome: result.outcome };
  }

  @Get('devices/:serial/ssh-keys')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: [SshKeyDto] })
  async ofDevice(@Param('serial') serial: string): Promise<SshKeyDto[]> {
    return (await this.keys.ofDevice(serial)).map(SshKeyDto.fromRow);
  }
}
