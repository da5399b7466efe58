import { Controller, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { AcceptsBody, RequestBodyError } from '@platform/http';
import { AgentAuth } from '../../app/access/access.decorators';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { AgentRequest, AgentSecretGuard } from '../agent-auth/agent-secret.guard';
import type { CertificateRequestEntity } from '../requests/certificate-request.entity';
import { LogSnapshotDto } from './dto/log-snapshot.dto';
import { LogSnapshotsError } from './log-snapshots.errors';
import { LOG_SNAPSHOT_MEDIA_TYPE, LogSnapshotsService } from './log-snapshots.service';
import { LOG_SNAPSHOT_RETENTION_MS } from './log-snapshots-retention';

/** `POST /api/v1/requests/{id}/logs`: the agent uploads a snapshot (X-Agent-Secret). */
@ApiTags('agent')
@ApiHeader({ name: 'X-Agent-Secret', required: true })
@Controller('api/v1/requests/:id')
@AgentAuth()
@UseGuards(AgentSecretGuard)
export class LogSnapshotsAgentController {
  constructor(
    private readonly snapshots: LogSnapshotsService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  @Post('logs')
  @HttpCode(201)
  @AcceptsBody(LOG_SNAPSHOT_MEDIA_TYPE)
  @ApiConsumes(LOG_SNAPSHOT_MEDIA_TYPE)
  @ApiBody({
    description:
      'gzip of UTF-8 log text (the agent log files, JSON lines); at most CERTSVC_LOG_SNAPSHOT_MAX_BYTES as sent and CERTSVC_LOG_SNAPSHOT_MAX_INFLATED_BYTES inflated',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiCreatedResponse({ type: LogSnapshotDto })
  async upload(
    @AgentRequest() request: CertificateRequestEntity,
    @Req() http: FastifyRequest,
  ): Promise<LogSnapshotDto> {
    const body = http.body as Readable | undefined;
    if (body === undefined || body === null) throw new LogSnapshotsError('log_snapshot_empty');
    // a JSON body (the only other type the gate lets through) is not a snapshot
    if (typeof (body as Partial<Readable>).iterator !== 'function') {
      throw RequestBodyError.unsupportedMediaType();
    }
    const length = http.headers['content-length'];
    const row = await this.snapshots.upload(
      request,
      body,
      length === undefined ? undefined : Number(length),
      this.config.logSnapshots.maxBytes,
    );
    return LogSnapshotDto.from(row, LOG_SNAPSHOT_RETENTION_MS);
  }
}
