import { Controller, Get, Header, Query, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../app/access/access.decorators';
import { authorizedKeyOf } from '../ssh-keys/openssh-public-key';
import {
  KeyholderKeysQueryDto,
  KeyholderPrincipalsQueryDto,
  KeyholderRevocationDto,
  KeyholderRevocationPageDto,
  KeyholderRevocationsQueryDto,
} from './dto/keyholder.dto';
import {
  CurrentKeyholderCaller,
  KeyholderAccessGuard,
  type KeyholderCaller,
} from './keyholder-access.guard';
import { KeyholderService } from './keyholder.service';

/**
 * Marks a successful answer as text. Set only once the answer exists: a refusal or failure
 * answers in the JSON error envelope (a `text/plain` header set up front makes Fastify refuse
 * to send the envelope object, turning a 400 into a 500).
 */
function plainText(reply: FastifyReply): void {
  void reply.header('content-type', 'text/plain; charset=utf-8');
}

/**
 * The key-holder API for target servers. No session: allowed networks, a per-process rate
 * limit and the server token (`X-Keyholder-Token`, by the gate step) instead.
 */
@ApiTags('keyholder')
@Controller('api/v1/keyholder')
@Public()
@UseGuards(KeyholderAccessGuard)
@ApiHeader({
  name: 'X-Keyholder-Token',
  required: false,
  description: 'server token (required when the token gate is at `required`)',
})
export class KeyholderController {
  constructor(private readonly keyholder: KeyholderService) {}

  @Get('keys')
  @Header('cache-control', 'no-store')
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description:
      'authorized_keys lines of the active keys for the login (sshd AuthorizedKeysCommand); empty when none',
    schema: { type: 'string' },
  })
  async keys(
    @CurrentKeyholderCaller() caller: KeyholderCaller,
    @Query() query: KeyholderKeysQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const keys = await this.keyholder.keysFor(caller, query.login);
    plainText(reply);
    return keys.map((k) => `${authorizedKeyOf(k.keyType, k.publicKey)} certsvc:${k.id}\n`).join('');
  }

  @Get('principals')
  @Header('cache-control', 'no-store')
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description:
      'principals the certificate may still use, one per line (sshd AuthorizedPrincipalsCommand); empty when revoked, expired or none is held any more',
    schema: { type: 'string' },
  })
  async principals(
    @CurrentKeyholderCaller() caller: KeyholderCaller,
    @Query() query: KeyholderPrincipalsQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const names = await this.keyholder.principalsOf(
      caller,
      query.serial,
      query.key_id,
      query.login,
    );
    plainText(reply);
    return names.map((n) => `${n}\n`).join('');
  }

  @Get('revocations')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ type: KeyholderRevocationPageDto })
  async revocations(
    @CurrentKeyholderCaller() caller: KeyholderCaller,
    @Query() query: KeyholderRevocationsQueryDto,
  ): Promise<KeyholderRevocationPageDto> {
    const page = await this.keyholder.revocations(caller, query.after ?? '0', query.limit ?? 100);
    return { items: page.items.map(KeyholderRevocationDto.from), next_after: page.next };
  }
}
