import { Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { LogRequestDto, LogSnapshotDto, LogSnapshotListDto } from './dto/log-snapshot.dto';
import { LOG_SNAPSHOT_MEDIA_TYPE, LogSnapshotsService } from './log-snapshots.service';
import { LOG_SNAPSHOT_RETENTION_MS } from './log-snapshots-retention';

/**
 * Device log snapshots for admins. cert-admin only, reads included: agent logs may hold
 * personal data (user names, host names, network names), so they are not part of the
 * device reading that approvers and viewers have (docs/certificate-service/log-snapshots.md).
 */
@ApiTags('devices')
@Controller('api/v1/devices/:serial')
@Roles('cert-admin')
export class LogSnapshotsController {
  constructor(private readonly snapshots: LogSnapshotsService) {}

  @Get('logs')
  @ApiOkResponse({ type: LogSnapshotListDto })
  async list(@Param('serial') serial: string): Promise<LogSnapshotListDto> {
    const rows = await this.snapshots.list(serial);
    return { items: rows.map((row) => LogSnapshotDto.from(row, LOG_SNAPSHOT_RETENTION_MS)) };
  }

  @Get('logs/:logId')
  @ApiProduces(LOG_SNAPSHOT_MEDIA_TYPE)
  @ApiOkResponse({ description: 'the snapshot as uploaded (gzip), as an attachment' })
  async download(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
    @Param('logId') logId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { snapshot, content } = await this.snapshots.download(actor, serial, logId);
    const name = `logs-${serial.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64)}-${snapshot.id}.log.gz`;
    await reply
      .code(200)
      .header('content-type', snapshot.contentType)
      .header('content-length', String(snapshot.sizeBytes))
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(content);
  }

  @Delete('logs/:logId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async delete(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
    @Param('logId') logId: string,
  ): Promise<void> {
    await this.snapshots.delete(actor, serial, logId);
  }

  @Post('request-logs')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: LogRequestDto })
  async requestLogs(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
  ): Promise<LogRequestDto> {
    const at = await this.snapshots.requestLogs(actor, serial);
    return { serial, requested_at: at.toISOString() };
  }

  @Delete('request-logs')
  @HttpCode(204)
  @ApiNoContentResponse()
  async cancelRequest(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
  ): Promise<void> {
    await this.snapshots.cancelRequest(actor, serial);
  }
}
