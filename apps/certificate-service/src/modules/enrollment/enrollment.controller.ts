import {
  Body,
  Controller,
  Headers,
  HttpCode,
  Post,
  Req,
  UseGuards,
  type RawBodyRequest,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../app/access/access.decorators';
import { DevicePurposesDto } from '../devices/dto/device.dto';
import { toPem } from '@platform/pki';
import { AgentNetworksService } from '../networks/agent-networks.service';
import { AgentNetworkDto } from '../networks/dto/agent-network.dto';
import { CrlDistributionService } from './crl-distribution.service';
import { DeviceSelfService } from './device-self-service.service';
import {
  CrlListDto,
  DevicePurposesResponseDto,
  PurposeRequestBodyDto,
  PurposeRequestResponseDto,
} from './dto/enroll-purposes.dto';
import { EnrollSshDto, EnrollSshResponseDto } from './dto/enroll-ssh.dto';
import { EnrollUserDto, EnrollUserResponseDto } from './dto/enroll-user.dto';
import { DeviceCredentialsDto, EnrollDto, EnrollResponseDto, NonceDto } from './dto/enroll.dto';
import { EnrollRateLimitGuard } from './enroll-rate-limit.guard';
import { EnrollNoncesService } from './enroll-nonces.service';
import { EnrollNonceIssuer } from './enroll-nonce-issuer.service';
import { EnrollNonceDto, EnrollNonceRequestDto, continuityOf } from './dto/enroll-nonce.dto';
import { tpmEvidenceOf } from '../tpm-attestation/dto/tpm-evidence.dto';
import { EnrollmentService } from './enrollment.service';
import { SshEnabledGuard } from '../../app/features/ssh-enabled.guard';
import { SshEnrollmentService } from './ssh-enrollment.service';
import { UserEnrollmentService } from './user-enrollment.service';

/** Enrollment: no session; nonce, enrollment token, source-auth and a rate limit instead. */
@ApiTags('enrollment')
@Controller('api/v1/enroll')
@Public()
@UseGuards(EnrollRateLimitGuard)
export class EnrollmentController {
  constructor(
    private readonly nonces: EnrollNoncesService,
    private readonly nonceIssuer: EnrollNonceIssuer,
    private readonly enrollment: EnrollmentService,
    private readonly users: UserEnrollmentService,
    private readonly ssh: SshEnrollmentService,
    private readonly self: DeviceSelfService,
    private readonly crls: CrlDistributionService,
    private readonly networks: AgentNetworksService,
  ) {}

  @Post('nonce')
  @ApiCreatedResponse({
    type: EnrollNonceDto,
    description:
      'one-time nonce for POST /enroll; with `tpm` in the body also a credential-activation challenge',
  })
  async nonce(@Body() body: EnrollNonceRequestDto): Promise<EnrollNonceDto> {
    const issued = await this.nonceIssuer.issue({
      serial: body?.serial,
      tpm: body?.tpm
        ? {
            ekCertificate: Buffer.from(body.tpm.ek_certificate, 'base64'),
            akPublic: Buffer.from(body.tpm.ak_public, 'base64'),
          }
        : undefined,
    });
    return EnrollNonceDto.from(issued);
  }

  @Post('source-nonce')
  @ApiCreatedResponse({ type: NonceDto, description: 'nonce to include in the signed enroll body' })
  async sourceNonce(): Promise<NonceDto> {
    const { nonce, expiresAt } = await this.nonces.issue('source');
    return { nonce, expires_at: expiresAt.toISOString() };
  }

  @Post()
  @ApiHeader({
    name: 'X-Enroll-Source-Signature',
    required: false,
    description:
      'base64 signature (SHA-256, ECDSA DER or RSA PKCS#1 v1.5) of the exact body with the CSR key',
  })
  @ApiCreatedResponse({ type: EnrollResponseDto })
  async enroll(
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Body() body: EnrollDto,
    @Headers('x-enroll-source-signature') signature?: string,
  ): Promise<EnrollResponseDto> {
    const result = await this.enrollment.enroll({
      csr: body.csr,
      serial: body.serial,
      nonce: body.nonce,
      enrollmentToken: body.enrollment_token,
      agentVersion: body.agent_version,
      platform: body.platform,
      hostname: body.hostname,
      sourceNonce: body.source_nonce,
      sourceSignature: signature,
      rawBody: request.rawBody ?? Buffer.alloc(0),
      tpm: body.tpm ? tpmEvidenceOf(body.tpm) : undefined,
      continuity: continuityOf(body),
      osVersion: body.os_version,
      appAttestationId: body.app_attestation_id,
    });
    return {
      request_id: result.requestId,
      status: 'pending',
      purpose: 'wifi',
      serial: body.serial,
      agent_secret: result.agentSecret,
      ...(result.enrollmentToken ? { enrollment_token: result.enrollmentToken } : {}),
    };
  }

  @Post('user')
  @ApiCreatedResponse({ type: EnrollUserResponseDto })
  async enrollUser(@Body() body: EnrollUserDto): Promise<EnrollUserResponseDto> {
    const result = await this.users.enroll({
      serial: body.serial,
      enrollmentToken: body.enrollment_token,
      csr: body.csr,
      purpose: body.purpose,
      user: body.user,
      upn: body.upn,
      sid: body.sid,
      agentVersion: body.agent_version,
    });
    return {
      request_id: result.requestId,
      status: 'pending',
      purpose: body.purpose,
      agent_secret: result.agentSecret,
    };
  }

  @Post('ssh')
  @UseGuards(SshEnabledGuard)
  @ApiCreatedResponse({ type: EnrollSshResponseDto })
  async enrollSsh(@Body() body: EnrollSshDto): Promise<EnrollSshResponseDto> {
    const result = await this.ssh.enroll({
      serial: body.serial,
      enrollmentToken: body.enrollment_token,
      publicKey: body.public_key,
      agentVersion: body.agent_version,
    });
    return {
      request_id: result.requestId,
      status: 'pending',
      purpose: 'ssh',
      key_type: result.keyType,
      fingerprint: result.fingerprint,
      agent_secret: result.agentSecret,
    };
  }

  @Post('purposes')
  @HttpCode(200)
  @ApiOkResponse({ type: DevicePurposesResponseDto })
  async purposes(@Body() body: DeviceCredentialsDto): Promise<DevicePurposesResponseDto> {
    const device = await this.self.purposes(body.serial, body.enrollment_token);
    const view = DevicePurposesDto.from(device);
    const networks = await this.networks.forDevice({
      platform: device.device.platform,
      effectivePurposes: device.effectivePurposes,
    });
    return {
      serial: view.serial,
      purposes: view.effective,
      networks: networks.map(AgentNetworkDto.from),
    };
  }

  @Post('purpose-request')
  @HttpCode(200)
  @ApiOkResponse({ type: PurposeRequestResponseDto })
  async purposeRequest(@Body() body: PurposeRequestBodyDto): Promise<PurposeRequestResponseDto> {
    const ask = await this.self.askPurpose(
      body.serial,
      body.enrollment_token,
      body.purpose,
      body.note ?? null,
    );
    return ask.status === 'pending'
      ? { status: 'pending', request_id: ask.request.id, purpose: body.purpose }
      : { status: 'already_allowed', purpose: body.purpose };
  }

  @Post('crl')
  @HttpCode(200)
  @ApiOkResponse({ type: CrlListDto })
  async crl(): Promise<CrlListDto> {
    const crls = await this.crls.current();
    return {
      crls: crls.map((c) => ({
        issuer: c.issuer,
        pem: toPem('X509 CRL', c.der),
        this_update: c.thisUpdate.toISOString(),
        next_update: c.nextUpdate.toISOString(),
      })),
    };
  }
}
