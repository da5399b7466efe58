import { Injectable } from '@nestjs/common';
import { createHash, createPublicKey, timingSafeEqual } from 'node:crypto';
import {
  samePublicKey,
  tpmQualifyingData,
  verifyTpmSignature,
  type TpmPublic,
} from '@platform/pki';
import { TpmRootsService } from '../tpm-roots/tpm-roots.service';
import { decodeTpmAttest, decodeTpmPublic, isAttestationKey } from './tpm-decode';
import type { PinnedTpm, StoredTpmChallenge, TpmEvidence, TpmVerdict } from './tpm-evidence';

export interface TpmVerification {
  evidence: TpmEvidence;
  /** The enroll nonce: the quote's qualifying data is its SHA-256. */
  nonce: string;
  /** The challenge issued with the nonce, if any. */
  challenge: StoredTpmChallenge | null;
  csrPublicKeySpkiDer: Buffer;
  pinned: PinnedTpm | null;
  at?: Date;
}

/**
 * Checks TPM evidence of one enrollment (docs/certificate-service/tpm-attestation.md): the EK
 * certificate up to a registered vendor root, the AK's attributes, a quote by the AK over the
 * nonce (freshness), the AK bound to the EK by the nonce's credential activation or pinned
 * before, and the AK's certify of the CSR key. Malformed structures throw 400
 * `tpm_evidence_invalid`; everything else answers a verdict.
 */
@Injectable()
export class TpmEvidenceVerifier {
  constructor(private readonly roots: TpmRootsService) {}

  async verify(input: TpmVerification): Promise<TpmVerdict> {
    const { evidence } = input;
    const ak = decodeTpmPublic('ak_public', evidence.akPublic);
    const quote = decodeTpmAttest('quote_info', evidence.quoteInfo);
    const key = evidence.keyPublic ? decodeTpmPublic('key_public', evidence.keyPublic) : null;
    const certify = evidence.certifyInfo
      ? decodeTpmAttest('certify_info', evidence.certifyInfo)
      : null;
    if (!isAttestationKey(ak)) return { ok: false, reason: 'ak_attributes' };

    const ek = await this.roots.verifyEkCertificate(
      evidence.ekCertificate,
      evidence.ekChain,
      input.at,
    );
    if (!ek.ok) return { ok: false, reason: `ek_${ek.reason}` };

    if (quote.type !== 'quote') return { ok: false, reason: 'quote_not_quote' };
    if (!quote.extraData.equals(tpmQualifyingData(input.nonce))) {
      return { ok: false, reason: 'quote_nonce' };
    }
    if (!verifyTpmSignature(ak.publicKey, evidence.quoteInfo, evidence.quoteSignature)) {
      return { ok: false, reason: 'quote_signature' };
    }

    const pinned = input.pinned;
    if (pinned?.ekCertSerial && pinned.ekCertSerial !== ek.serialHex) {
      return { ok: false, reason: 'ek_mismatch' };
    }
    let binding: 'activated' | 'pinned';
    if (pinned?.akPublic) {
      if (!sameTpmPublic(pinned.akPublic, ak)) return { ok: false, reason: 'ak_mismatch' };
      binding = 'pinned';
    } else {
      const refusal = activationRefusal(input, ak, ek.ekCertDer);
      if (refusal) return { ok: false, reason: refusal };
      binding = 'activated';
    }

    let keyResident = false;
    if (key || certify || evidence.certifySignature) {
      if (!key || !certify || !evidence.certifySignature)
        return { ok: false, reason: 'certify_invalid' };
      const certified =
        certify.type === 'certify' &&
        certify.certifiedName?.equals(key.name) === true &&
        verifyTpmSignature(
          ak.publicKey,
          evidence.certifyInfo ?? Buffer.alloc(0),
          evidence.certifySignature,
        ) &&
        isResidentSigningKey(key) &&
        samePublicKey(
          key.publicKey,
          createPublicKey({ key: input.csrPublicKeySpkiDer, format: 'der', type: 'spki' }),
        );
      if (!certified) return { ok: false, reason: 'certify_invalid' };
      keyResident = true;
    }
    return { ok: true, ekSerial: ek.serialHex, akPublic: evidence.akPublic, binding, keyResident };
  }
}

function activationRefusal(
  input: TpmVerification,
  ak: TpmPublic,
  ekCertDer: Buffer,
): 'activation_missing' | 'activation_mismatch' | 'activation_failed' | undefined {
  const challenge = input.challenge;
  const answer = input.evidence.activatedCredential;
  if (!challenge || !answer) return 'activation_missing';
  if (challenge.akName !== ak.name.toString('hex')) return 'activation_mismatch';
  if (challenge.ekFingerprint !== sha256(ekCertDer).toString('hex')) return 'activation_mismatch';
  const expected = Buffer.from(challenge.credentialHash, 'hex');
  const got = sha256(answer);
  return expected.length === got.length && timingSafeEqual(expected, got)
    ? undefined
    : 'activation_failed';
}

/** A key the TPM generated and never lets out, usable to sign a CSR. */
function isResidentSigningKey(key: TpmPublic): boolean {
  const a = key.attributes;
  return a.fixedTPM && a.fixedParent && a.sensitiveDataOrigin && a.sign;
}

function sameTpmPublic(pinned: Buffer, ak: TpmPublic): boolean {
  try {
    return decodeTpmPublic('ak_public', pinned).name.equals(ak.name);
  } catch {
    return false;
  }
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}
