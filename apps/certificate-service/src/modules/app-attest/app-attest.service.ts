import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { randomSecret, sha256Hex } from '@platform/auth';
import { verifyAppAttestation } from '@platform/pki';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { setSerial } from '../../app/request-context/request-context';
import { AppAttestError } from './app-attest.errors';
import { AppAttestRepository } from './app-attest.repository';

/** How long a verified attestation waits for its `POST /enroll`. */
export const APP_ATTESTATION_TTL_SECONDS = 3600;
/** Purge expired rows on about one challenge in this many. */
const PURGE_EVERY = 100;

export interface AppAttestReceipt {
  serial: string;
  challenge: string;
  /** base64 (standard or url-safe) of the 32-byte key identifier. */
  keyId: string;
  /** base64 of the CBOR attestation object. */
  attestation: string;
  osVersion?: string;
}

/** `POST /enroll/app-attest/challenge` and `POST /enroll/app-attest`. */
@Injectable()
export class AppAttestService {
  private readonly logger = new Logger('AppAttestService');
  private issued = 0;

  constructor(
    private readonly repository: AppAttestRepository,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  /** A one-time challenge for `serial`; only its hash is stored. */
  async challenge(
    serial: string,
    now = new Date(),
  ): Promise<{ challenge: string; expiresAt: Date }> {
    setSerial(serial);
    const challenge = randomSecret(32);
    const expiresAt = new Date(now.getTime() + this.config.enroll.nonceTtlSeconds * 1000);
    await this.repository.insertChallenge(sha256Hex(challenge), serial, expiresAt);
    if (++this.issued % PURGE_EVERY === 0) await this.repository.purgeExpired();
    return { challenge, expiresAt };
  }

  /** Verifies the attestation and stores it for one enrollment of `serial`. */
  async receive(
    input: AppAttestReceipt,
    now = new Date(),
  ): Promise<{ id: string; expiresAt: Date }> {
    setSerial(input.serial);
    // The challenge is spent whatever comes next: one attempt per challenge.
    if (!(await this.repository.consumeChallenge(sha256Hex(input.challenge), input.serial))) {
      this.refuse(input.serial, 'challenge unknown, used, expired or issued for another serial');
    }
    const { roots, appIds, allowDevelopment } = this.config.appAttest;
    if (roots.length === 0 || appIds.length === 0) {
      this.refuse(input.serial, 'App Attest is not configured (CERTSVC_APP_ATTEST_ROOTS_FILE)');
    }
    const keyId = Buffer.from(input.keyId, 'base64');
    if (keyId.length !== 32) this.refuse(input.serial, 'key_id is not 32 bytes of base64');
    const verdict = verifyAppAttestation({
      attestation: Buffer.from(input.attestation, 'base64'),
      challenge: Buffer.from(input.challenge, 'utf8'),
      keyId,
      appIds,
      roots,
      allowDevelopment,
      now,
    });
    if (!verdict.ok) this.refuse(input.serial, verdict.reason);
    const id = randomUUID();
    const expiresAt = new Date(now.getTime() + APP_ATTESTATION_TTL_SECONDS * 1000);
    await this.repository.insertAttestation({
      id,
      serial: input.serial,
      keyId: keyId.toString('hex'),
      appId: verdict.appId,
      environment: verdict.environment,
      verdict: 'verified',
      osVersion: input.osVersion ?? null,
      verifiedAt: now,
      expiresAt,
      usedAt: null,
    });
    this.logger.log(
      { attestation_id: id, app_id: verdict.appId, environment: verdict.environment },
      'app attestation verified',
    );
    return { id, expiresAt };
  }

  private refuse(serial: string, reason: string): never {
    this.logger.warn({ reason, serial }, 'app attestation refused');
    throw new AppAttestError('app_attest_invalid');
  }
}
