import { Body, Controller, Get, Headers, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AgentAuth } from '../../app/access/access.decorators';
import { toPem } from '@platform/pki';
import type { CertificateRequestEntity } from '../requests/certificate-request.entity';
import { AgentDirectiveDto } from '../issuance-directives/dto/issuance-directive.dto';
import { AgentRequest, AgentSecretGuard } from '../agent-auth/agent-secret.guard';
import { AgentService } from './agent.service';
import { LogSnapshotsService } from '../log-snapshots/log-snapshots.service';
import { etagMatches } from './bundle-version';
import {
  AgentCertificateDto,
  AgentSshCertificateDto,
  BundleVersionDto,
  CheckinDto,
  CheckinResponseDto,
  RequestStatusDto,
} from './dto/agent.dto';

/** Agent routes, authenticated by the `X-Agent-Secret` issued with the request. */
@ApiTags('agent')
@ApiHeader({ name: 'X-Agent-Secret', required: true })
@Controller('api/v1/requests/:id')
@AgentAuth()
@UseGuards(AgentSecretGuard)
export class AgentController {
  constructor(
    private readonly agent: AgentService,
    private readonly logs: LogSnapshotsService,
  ) {}

  @Get('status')
  @ApiOkResponse({ type: RequestStatusDto })
  status(@AgentRequest() request: CertificateRequestEntity): RequestStatusDto {
    return RequestStatusDto.from(request);
  }

  @Post('checkin')
  @HttpCode(200)
  @ApiOkResponse({ type: CheckinResponseDto })
  async checkin(
    @AgentRequest() request: CertificateRequestEntity,
    @Body() body: CheckinDto,
  ): Promise<CheckinResponseDto> {
    const { at, directives, blocked } = await this.agent.checkin(
      request,
      body.agent_version ?? null,
    );
    return {
      request_id: request.id,
      installed_at: at.toISOString(),
      issuance_directives: directives.map(AgentDirectiveDto.from),
      upload_logs: await this.logs.uploadRequested(request.deviceId),
      blocked,
    };
  }

  @Get('bundle-version')
  @ApiOkResponse({ type: BundleVersionDto })
  async bundleVersion(
    @AgentRequest() request: CertificateRequestEntity,
  ): Promise<BundleVersionDto> {
    return { bundle_version: (await this.agent.certificate(request)).version };
  }

  @Get('certificate')
  @ApiExtraModels(AgentCertificateDto, AgentSshCertificateDto)
  @ApiOkResponse({
    description: 'X.509 purposes: PEM certificate and CA bundle; `ssh`: the OpenSSH certificate',
    schema: {
      oneOf: [
        { $ref: getSchemaPath(AgentCertificateDto) },
        { $ref: getSchemaPath(AgentSshCertificateDto) },
      ],
    },
    headers: { ETag: { schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 304, description: 'If-None-Match names the current bundle' })
  async certificate(
    @AgentRequest() request: CertificateRequestEntity,
    @Res() reply: FastifyReply,
    @Headers('if-none-match') ifNoneMatch?: string,
  ): Promise<void> {
    const delivered = await this.agent.certificate(request);
    const etag = `"${delivered.version}"`;
    void reply.header('etag', etag).header('cache-control', 'no-cache');
    if (etagMatches(ifNoneMatch, etag)) {
      await reply.code(304).send();
      return;
    }
    if (delivered.kind === 'ssh') {
      await reply.code(200).send(AgentSshCertificateDto.from(request.id, delivered));
      return;
    }
    const { certificate, version } = delivered;
    const body: AgentCertificateDto = {
      request_id: request.id,
      serial: certificate.serial,
      certificate_pem: toPem('CERTIFICATE', certificate.certificateDer),
      ca_bundle_pem: certificate.chainDer.map((der) => toPem('CERTIFICATE', der)).join(''),
      not_before: certificate.notBefore.toISOString(),
      not_after: certificate.notAfter.toISOString(),
      bundle_version: version,
    };
    await reply.code(200).send(body);
  }
}
