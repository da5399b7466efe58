import { Controller, Get, Headers, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../app/access/access.decorators';
import { SshEnabledGuard } from '../../app/features/ssh-enabled.guard';
import { SshCaPublicKeyDto } from './dto/ssh.dto';
import { SshCaService } from './ssh-ca.service';
import { sendKrl } from './ssh-krl.http';
import { SshKrl } from './ssh-krl.service';

/** Whether the client asked for the bare authorized-keys line rather than JSON. */
function wantsText(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0].trim().toLowerCase());
  const text = types.indexOf('text/plain');
  const json = types.indexOf('application/json');
  return text >= 0 && (json < 0 || text < json);
}

/**
 * Public SSH routes: what target servers configure (`TrustedUserCAKeys`, `RevokedKeys`).
 * Neither is secret; the key-holder API serves the KRL behind its network and token checks.
 */
@ApiTags('ssh')
@Controller('api/v1/ssh')
@Public()
@UseGuards(SshEnabledGuard)
export class SshController {
  constructor(
    private readonly ca: SshCaService,
    private readonly krl: SshKrl,
  ) {}

  @Get('ca-public-key')
  @ApiProduces('application/json', 'text/plain')
  @ApiOkResponse({
    type: SshCaPublicKeyDto,
    description: 'JSON; with `Accept: text/plain` the bare authorized-keys line',
  })
  async caPublicKey(@Res() reply: FastifyReply, @Headers('accept') accept?: string): Promise<void> {
    const ca = this.ca.ca();
    if (wantsText(accept)) {
      await reply
        .header('content-type', 'text/plain; charset=utf-8')
        .send(`${ca.authorizedKey()}\n`);
      return;
    }
    const body: SshCaPublicKeyDto = {
      public_key: ca.authorizedKey(),
      key_type: 'ssh-ed25519',
      fingerprint: ca.fingerprint,
    };
    await reply.send(body);
  }

  @Get('krl')
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({
    description: 'OpenSSH KRL (binary); strong ETag, X-KRL-Version',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiResponse({ status: 304, description: 'If-None-Match names the current KRL' })
  async revocationList(
    @Res() reply: FastifyReply,
    @Headers('if-none-match') ifNoneMatch?: string,
  ): Promise<void> {
    await sendKrl(reply, await this.krl.current(), ifNoneMatch);
  }
}
