import { Inject, Injectable, Logger } from '@nestjs/common';
import { createPublicKey, verify } from 'node:crypto';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { CertsvcMetrics } from '../../app/metrics/certsvc-metrics';
import type { SourceAuthResult } from '../requests/certificate-request.entity';
import type { EnrollSourceAuthPolicy } from '../settings/enroll-source-auth.policy';
import { hardwarePolicyRefusal } from '../tpm-attestation/hardware-key.policy';
import type { PinnedTpm, TpmEvidence, TpmVerdict } from '../tpm-attestation/tpm-evidence';
import { TpmEvidenceVerifier } from '../tpm-attestation/tpm-evidence.verifier';
import { EnrollmentError } from './enrollment.errors';
import { EnrollNoncesService } from './enroll-nonces.service';
import { SourceAuthGate } from './source-auth/source-auth.gate';

/** Continuity-key proof: a signature over this message (docs/certificate-service/tpm-attestation.md). */
export function continuityMessage(serial: string, nonce: string): Buffer {
  return Buffer.from(`certsvc-continuity/v1\0${serial}\0${nonce}`, 'utf8');
}

export interface AttestationInput {
  serial: string;
  nonce: string;
  platform?: string;
  agentVersion?: string;
  rawBody: Buffer;
  sourceSignature?: string;
  sourceNonce?: string;
  csrPublicKeySpkiDer: Buffer;
  tpm?: TpmEvidence;
  continuity?: { publicKeyPem: string; signature: Buffer };
  /** The fleet's source-auth policy, as read for this enrollment. */
  sourceAuthPolicy: EnrollSourceAuthPolicy;
  /** What the device has pinned (null: new device). */
  pinned: (PinnedTpm & { continuityKey: string | null }) | null;
}

export interface AttestationOutcome {
  sourceAuth: SourceAuthResult;
  tpm: Extract<TpmVerdict, { ok: true }> | undefined;
  /** The continuity key to pin (SPKI PEM), when presented. */
  continuityKey: string | null;
}

/**
 * Everything `POST /enroll` checks about where a request comes from, before anything is
 * written: TPM evidence, the `TPM_*` policy, the source-auth step and the continuity key.
 * Every refusal is 403 `enroll_source_auth_failed` (cause in the server log), counted in
 * `certsvc_agent_channel_identity_total{verdict="refused"}`.
 */
@Injectable()
export class EnrollAttestationService {
  private readonly logger = new Logger('EnrollAttestation');

  constructor(
    private readonly nonces: EnrollNoncesService,
    private readonly verifier: TpmEvidenceVerifier,
    private readonly sourceAuth: SourceAuthGate,
    private readonly metrics: CertsvcMetrics,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  async assess(input: AttestationInput): Promise<AttestationOutcome> {
    const tpm = input.tpm ? await this.verifyTpm(input, input.tpm) : undefined;
    const policyRefusal = hardwarePolicyRefusal(this.config.tpm, {
      verdict: tpm,
      platform: input.platform,
      pinned: input.pinned,
    });
    if (policyRefusal) this.refuse(policyRefusal);
    let sourceAuth: SourceAuthResult;
    try {
      sourceAuth = await this.sourceAuth.check(input.sourceAuthPolicy, {
        agentVersion: input.agentVersion,
        rawBody: input.rawBody,
        signature: input.sourceSignature,
        sourceNonce: input.sourceNonce,
        publicKeySpkiDer: input.csrPublicKeySpkiDer,
        platform: input.platform,
        hardware: { attested: tpm !== undefined, keyResident: tpm?.keyResident === true },
      });
    } catch (error) {
      this.metrics.agentChannelIdentified('refused');
      throw error;
    }
    const continuityKey = this.checkContinuity(input);
    this.metrics.agentChannelIdentified(
      tpm ? (tpm.binding === 'activated' ? 'tpm_activated' : 'tpm_pinned') : 'unattested',
    );
    return { sourceAuth, tpm, continuityKey };
  }

  private async verifyTpm(
    input: AttestationInput,
    evidence: TpmEvidence,
  ): Promise<Extract<TpmVerdict, { ok: true }>> {
    const live = await this.nonces.peek('enroll', input.nonce);
    if (!live) throw new EnrollmentError('nonce_invalid');
    const verdict = await this.verifier.verify({
      evidence,
      nonce: input.nonce,
      challenge: live.challenge,
      csrPublicKeySpkiDer: input.csrPublicKeySpkiDer,
      pinned: input.pinned,
    });
    if (!verdict.ok) this.refuse(`tpm: ${verdict.reason}`);
    return verdict;
  }

  /** The continuity key must prove itself, and match the pinned one once pinned. */
  private checkContinuity(input: AttestationInput): string | null {
    const pinned = input.pinned?.continuityKey ?? null;
    if (!input.continuity) {
      if (pinned) this.refuse('continuity key pinned but not presented');
      return null;
    }
    let presented: string;
    try {
      const key = createPublicKey(input.continuity.publicKeyPem);
      presented = key.export({ format: 'pem', type: 'spki' }).toString();
      const hash = key.asymmetricKeyType === 'ed25519' ? null : 'sha256';
      if (
        !verify(hash, continuityMessage(input.serial, input.nonce), key, input.continuity.signature)
      ) {
        this.refuse('continuity signature does not verify');
      }
    } catch (error) {
      if (error instanceof EnrollmentError) throw error;
      this.refuse('continuity key unreadable');
    }
    if (pinned && pinned.trim() !== presented.trim())
      this.refuse('continuity key differs from the pinned one');
    return presented;
  }

  private refuse(reason: string): never {
    this.metrics.agentChannelIdentified('refused');
    this.logger.warn({ reason }, 'enroll source-auth refused');
    throw new EnrollmentError('enroll_source_auth_failed');
  }
}
