import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import {
  DeviceRevocationDto,
  RevocationRowDto,
  RevokeCertificateDto,
  RevokedCertificateDto,
  UnblockResultDto,
  UserRevocationDto,
} from './dto/revocation.dto';
import { RevocationService } from './revocation.service';

/** Revocation and block routes; all `cert-admin`. */
@ApiTags('revocation')
@Controller('api/v1')
@Roles('cert-admin')
export class RevocationController {
  constructor(private readonly revocation: RevocationService) {}

  @Post('certificates/:serial/revoke')
  @HttpCode(200)
  @ApiOkResponse({
    type: RevokedCertificateDto,
    description:
      'revoked; with an issuer that cannot revoke (SCEP) marked revoked here only, with `ca_revoke_unsupported` and a `warning`',
  })
  async revokeCertificate(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
    @Body() body: RevokeCertificateDto,
  ): Promise<RevokedCertificateDto> {
    return RevokedCertificateDto.fromRevocation(
      await this.revocation.revokeCertificate(actor, serial, body.reason ?? 'unspecified'),
    );
  }

  @Post('devices/:serial/revoke')
  @HttpCode(200)
  @ApiOkResponse({
    type: DeviceRevocationDto,
    description: 'every certificate revoked, SSH cascade done; device blocked',
  })
  @ApiResponse({
    status: 207,
    type: DeviceRevocationDto,
    description:
      'partial failure of X.509 certificates (no block) or of the SSH cascade (`ssh_keys_revoke_failed`); repeat is safe',
  })
  async revokeDevice(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DeviceRevocationDto> {
    const result = await this.revocation.revokeDevice(actor, serial);
    void reply.status(result.complete && result.ssh.ok ? 200 : 207);
    return DeviceRevocationDto.from(result);
  }

  @Post('devices/:serial/unblock')
  @HttpCode(200)
  @ApiOkResponse({ type: UnblockResultDto })
  unblock(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
  ): Promise<UnblockResultDto> {
    return this.revocation.unblockDevice(actor, serial);
  }

  @Post('users/:identity/revoke-certs')
  @HttpCode(200)
  @ApiOkResponse({ type: UserRevocationDto })
  async revokeUser(
    @CurrentActor() actor: Actor,
    @Param('identity') identity: string,
  ): Promise<UserRevocationDto> {
    const outcomes = await this.revocation.revokeUserCertificates(actor, identity);
    return { identity, certificates: outcomes.map(RevocationRowDto.from) };
  }
}
