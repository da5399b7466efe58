import { Injectable, Logger } from '@nestjs/common';
import type { SourceAuthResult } from '../../requests/certificate-request.entity';
import type { EnrollSourceAuthPolicy } from '../../settings/enroll-source-auth.policy';
import { EnrollmentError } from '../enrollment.errors';
import { EnrollNoncesService } from '../enroll-nonces.service';
import { meetsFloor } from '../../../app/domain/agent-version';
import { verifySourceSignature } from './source-signature';
import { isTpmPlatform } from '../../tpm-attestation/hardware-key.policy';

export interface SourceEvidence {
  agentVersion?: string;
  /** The exact request body as received. */
  rawBody: Buffer;
  /** Base64 signature from `X-Enroll-Source-Signature`. */
  signature?: string;
  /** Source nonce carried in the body (part of what is signed). */
  sourceNonce?: string;
  /** Public key of the CSR. */
  publicKeySpkiDer: Buffer;
  /** Platform the agent reports; `strict` asks less of macOS (no TPM there). */
  platform?: string;
  /** What the TPM evidence of the request proved (verified before the gate runs). */
  hardware?: { attested: boolean; keyResident: boolean };
}

/**
 * Applies the enroll source-auth policy before anything is stored. Every refusal is
 * `enroll_source_auth_failed`; the cause goes to the server log only.
 */
@Injectable()
export class SourceAuthGate {
  private readonly logger = new Logger('SourceAuthGate');
  constructor(private readonly nonces: EnrollNoncesService) {}

  async check(policy: EnrollSourceAuthPolicy, evidence: SourceEvidence): Promise<SourceAuthResult> {
    switch (policy.mode) {
      case 'off':
        return this.signatureResult(evidence);
      case 'version_floor':
        if (
          policy.minAgentVersion === null ||
          !meetsFloor(evidence.agentVersion, policy.minAgentVersion)
        ) {
          return this.refuse('agent version below the floor', evidence.agentVersion);
        }
        return 'version_ok';
      case 'attestation_hardgate':
        await this.signedFresh(evidence);
        return 'signature_valid';
      case 'strict':
        // Windows and Linux: the full chain, synchronously (EK up to a vendor root, the AK
        // activated or pinned, the CSR key certified by it). macOS: the signature only.
        if (isTpmPlatform(evidence.platform)) {
          if (!evidence.hardware?.attested) return this.refuse('strict: no TPM attestation chain');
          if (!evidence.hardware.keyResident) return this.refuse('strict: a software key');
        }
        await this.signedFresh(evidence);
        return isTpmPlatform(evidence.platform) ? 'tpm_attested' : 'signature_valid';
    }
  }

  /** The body signed with the CSR key, over a fresh source nonce (consumed once). */
  private async signedFresh(evidence: SourceEvidence): Promise<void> {
    if (this.signatureResult(evidence) !== 'signature_valid') {
      this.refuse('source signature missing or invalid');
    }
    if (!evidence.sourceNonce || !(await this.nonces.consume('source', evidence.sourceNonce))) {
      this.refuse('source nonce missing, expired or reused');
    }
  }

  /** Recorded under `off`: whether a signature was sent and verifies (nonce not consumed). */
  private signatureResult(evidence: SourceEvidence): SourceAuthResult {
    if (!evidence.signature) return 'not_checked';
    return verifySourceSignature(evidence.publicKeySpkiDer, evidence.rawBody, evidence.signature)
      ? 'signature_valid'
      : 'signature_invalid';
  }

  private refuse(reason: string, agentVersion?: string): never {
    this.logger.warn({ reason, agent_version: agentVersion }, 'enroll source-auth refused');
    throw new EnrollmentError('enroll_source_auth_failed');
  }
}
