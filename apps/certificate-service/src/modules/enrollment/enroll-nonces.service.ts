import { Inject, Injectable } from '@nestjs/common';
import { randomSecret, sha256Hex } from '@platform/auth';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import type { EnrollNonceKind } from './enroll-nonce.entity';
import type { StoredTpmChallenge } from '../tpm-attestation/tpm-evidence';
import { EnrollNoncesRepository, type NonceClaim } from './enroll-nonces.repository';
import { NonceSigner } from './signed-nonce';

/** What is stored of a nonce, and looked up by: its SHA-256, hex. */
export const nonceHash = (nonce: string): string => sha256Hex(nonce);

/** Purge old nonces on about one issue in this many. */
const PURGE_EVERY = 100;

/**
 * One-time, short-lived nonces; only their hash is ever stored. A plain nonce is signed
 * (`signed-nonce.ts`): issuing it writes nothing, and its row is written when it is spent. A
 * nonce issued with a TPM credential-activation challenge is stored at issue, with the
 * challenge, and marked used when spent.
 */
@Injectable()
export class EnrollNoncesService {
  private issued = 0;
  private readonly signer: NonceSigner;

  constructor(
    private readonly nonces: EnrollNoncesRepository,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {
    this.signer = new NonceSigner(config.jwt.secret);
  }

  async issue(
    kind: EnrollNonceKind,
    now = new Date(),
    challenge?: StoredTpmChallenge,
  ): Promise<{ nonce: string; expiresAt: Date }> {
    const expiry = new Date(now.getTime() + this.config.enroll.nonceTtlSeconds * 1000);
    if (++this.issued % PURGE_EVERY === 0) await this.nonces.purgeExpired();
    if (!challenge) return this.signer.sign(kind, expiry);
    const nonce = randomSecret(32);
    await this.nonces.insert(nonceHash(nonce), kind, expiry, challenge);
    return { nonce, expiresAt: expiry };
  }

  /** Whether the nonce is live, and the challenge issued with it; nothing is consumed. */
  async peek(
    kind: EnrollNonceKind,
    nonce: string,
    now = new Date(),
  ): Promise<{ challenge: StoredTpmChallenge | null } | undefined> {
    const signed = this.signer.open(nonce);
    if (!signed) return this.nonces.peek(nonceHash(nonce), kind);
    if (signed.kind !== kind || signed.expiresAt <= now) return undefined;
    return (await this.nonces.isSpent(nonceHash(nonce))) ? undefined : { challenge: null };
  }

  /**
   * How `nonce` is spent as a `kind` nonce (`consumeNonceSql`): a signed nonce of another kind
   * or already expired is claimed as a stored one, whose row does not exist, so it is refused.
   */
  claim(kind: EnrollNonceKind, nonce: string, now = new Date()): NonceClaim {
    const signed = this.signer.open(nonce);
    const live = signed && signed.kind === kind && signed.expiresAt > now;
    return { hash: nonceHash(nonce), kind, signedExpiresAt: live ? signed.expiresAt : null };
  }

  /** True exactly once per valid nonce. */
  consume(kind: EnrollNonceKind, nonce: string): Promise<boolean> {
    return this.nonces.consume(this.claim(kind, nonce));
  }
}
