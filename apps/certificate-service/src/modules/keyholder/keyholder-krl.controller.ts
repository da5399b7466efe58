import { Controller, Get, Headers, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../app/access/access.decorators';
import { SshEnabledGuard } from '../../app/features/ssh-enabled.guard';
import { sendKrl } from '../ssh/ssh-krl.http';
import { SshKrl } from '../ssh/ssh-krl.service';
import { KeyholderAccessGuard } from './keyholder-access.guard';

/**
 * `GET /api/v1/keyholder/krl`: the same cached KRL bytes, ETag and version as the public
 * `GET /api/v1/ssh/krl`, behind the key-holder checks (allowed networks, rate limit, token gate).
 */
@ApiTags('keyholder')
@Controller('api/v1/keyholder')
@Public()
@UseGuards(SshEnabledGuard, KeyholderAccessGuard)
@ApiHeader({
  name: 'X-Keyholder-Token',
  required: false,
  description: 'server token (required when the token gate is at `required`)',
})
export class KeyholderKrlController {
  constructor(private readonly krl: SshKrl) {}

  @Get('krl')
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({
    description: 'OpenSSH KRL (binary, sshd `RevokedKeys`); strong ETag, X-KRL-Version',
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
