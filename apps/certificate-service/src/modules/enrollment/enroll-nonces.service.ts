import { Inject, Injectable } from '@nestjs/common';
import { randomSecret, sha256Hex } from '@platform/auth';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import type { EnrollNonceKind } from './enroll-nonce.entity';
import type { StoredTpmChallenge } from '../tpm-attestation/tpm-evidence';
import { EnrollNoncesRepository } from './enroll-nonces.repository';

/** What is stored of a nonce, and looked up by: its SHA-256, hex. */
export const nonceHash = (nonce: string): string => sha256Hex(nonce);

/** Purge old nonces on about one issue in this many. */
const PURGE_EVERY = 100;

/** One-time, short-lived nonces; only their hash is stored. */
@Injectable()
export class EnrollNoncesService {
  private issued = 0;

  constructor(
    private readonly nonces: EnrollNoncesRepository,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  async issue(
    kind: EnrollNonceKind,
    now = new Date(),
    challenge?: StoredTpmChallenge,
  ): Promise<{ nonce: string; expiresAt: Date }> {
    const nonce = randomSecret(32);
    const expiresAt = new Date(now.getTime() + this.config.enroll.nonceTtlSeconds * 1000);
    await this.nonces.insert(nonceHash(nonce), kind, expiresAt, challenge);
    if (++this.issued % PURGE_EVERY === 0) await this.nonces.purgeExpired();
    return { nonce, expiresAt };
  }

  /** Whether the nonce is live, and the challenge issued with it; nothing is consumed. */
  peek(
    kind: EnrollNonceKind,
    nonce: string,
  ): Promise<{ challenge: StoredTpmChallenge | null } | undefined> {
    return this.nonces.peek(nonceHash(nonce), kind);
  }

  /** True exactly once per valid nonce. */
  consume(kind: EnrollNonceKind, nonce: string): Promise<boolean> {
    return this.nonces.consume(nonceHash(nonce), kind);
  }
}
