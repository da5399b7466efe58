import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { randomSecret, sha256Hex } from '@platform/auth';
import { actorLabel, type Actor } from '../../app/access/actor';
import { AuditService } from '../audit/audit.service';
import type { KeyholderTokenEntity } from './keyholder-token.entity';
import { KeyholderError } from './keyholder.errors';
import { KeyholderTokensRepository } from './keyholder-tokens.repository';

/** Prefix of key-holder token values (recognisable in a server's configuration). */
export const KEYHOLDER_TOKEN_PREFIX = 'wkh_';
/** Longest header value looked at; longer values are invalid without hashing. */
export const MAX_KEYHOLDER_TOKEN_LENGTH = 200;

export function keyholderTokenHash(value: string): string {
  return sha256Hex(value);
}

/** Server tokens of the key-holder API: value shown once, SHA-256 stored, never listed. */
@Injectable()
export class KeyholderTokensService {
  constructor(
    private readonly tokens: KeyholderTokensRepository,
    private readonly audit: AuditService,
  ) {}

  list(): Promise<KeyholderTokenEntity[]> {
    return this.tokens.list();
  }

  async create(
    actor: Actor,
    name: string,
    principals: string[] | null,
  ): Promise<{ token: KeyholderTokenEntity; value: string }> {
    const value = `${KEYHOLDER_TOKEN_PREFIX}${randomSecret(32)}`;
    const token = await this.tokens.insert({
      id: randomUUID(),
      name,
      tokenHash: keyholderTokenHash(value),
      tokenPrefix: value.slice(0, 8),
      principals: principals === null ? null : [...new Set(principals)].sort(),
      createdBy: actorLabel(actor),
    });
    await this.audit.record({
      action: 'keyholder_token.create',
      actor,
      target: token.id,
      details: { name, principals: token.principals },
    });
    return { token, value };
  }

  async restrict(
    actor: Actor,
    id: string,
    principals: string[] | null,
  ): Promise<KeyholderTokenEntity> {
    const before = await this.live(id);
    const sorted = principals === null ? null : [...new Set(principals)].sort();
    const token = await this.tokens.setPrincipals(id, sorted);
    if (!token) throw new KeyholderError('keyholder_token_revoked');
    await this.audit.record({
      action: 'keyholder_token.principals_change',
      actor,
      target: id,
      details: { old: before.principals, new: token.principals },
    });
    return token;
  }

  async revoke(actor: Actor, id: string): Promise<KeyholderTokenEntity> {
    await this.live(id);
    const token = await this.tokens.revoke(id, new Date(), actorLabel(actor));
    if (!token) throw new KeyholderError('keyholder_token_revoked');
    await this.audit.record({ action: 'keyholder_token.revoke', actor, target: id });
    return token;
  }

  /** The active token a request presents, or null (unknown, revoked or malformed). */
  async authenticate(value: string): Promise<KeyholderTokenEntity | null> {
    if (value.length === 0 || value.length > MAX_KEYHOLDER_TOKEN_LENGTH) return null;
    return this.tokens.findActiveByHash(keyholderTokenHash(value));
  }

  private async live(id: string): Promise<KeyholderTokenEntity> {
    const token = isUUID(id, 'loose') ? await this.tokens.findById(id) : null;
    if (!token) throw new KeyholderError('keyholder_token_not_found');
    if (token.revokedAt) throw new KeyholderError('keyholder_token_revoked');
    return token;
  }
}
