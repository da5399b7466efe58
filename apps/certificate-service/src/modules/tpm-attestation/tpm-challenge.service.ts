import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { makeCredential, tpm2ToolsCredentialFile } from '@platform/pki';
import { decodeEkCertificate, decodeTpmPublic, isAttestationKey } from './tpm-decode';
import { TpmAttestationError } from './tpm-attestation.errors';
import type { PinnedTpm, StoredTpmChallenge } from './tpm-evidence';

export interface ActivationChallenge {
  /** Kept with the nonce; checked by the enroll that uses it. */
  stored: StoredTpmChallenge;
  /** TPM2B_ID_OBJECT and TPM2B_ENCRYPTED_SECRET, and both as tpm2-tools' credential file. */
  credentialBlob: Buffer;
  encryptedSecret: Buffer;
  credentialFile: Buffer;
}

/**
 * The credential-activation challenge of `POST /enroll/nonce`: a secret sealed to the EK
 * (MakeCredential) that the TPM releases only to the AK it names. Not issued when the
 * device's pinned AK is the one presented: the quote over the nonce is enough then.
 */
@Injectable()
export class TpmChallengeService {
  challenge(
    request: { ekCertificate: Buffer; akPublic: Buffer },
    pinned: PinnedTpm | null,
  ): ActivationChallenge | null {
    const ek = decodeEkCertificate(request.ekCertificate);
    const ak = decodeTpmPublic('ak_public', request.akPublic);
    if (!isAttestationKey(ak)) {
      throw new TpmAttestationError('tpm_evidence_invalid', {
        field: 'ak_public',
        problem: 'not a restricted, non-duplicable signing key of the TPM',
      });
    }
    if (pinned?.akPublic && pinned.akPublic.equals(request.akPublic)) return null;
    const made = makeCredential(ek.publicKey, ak.name);
    return {
      stored: {
        credentialHash: sha256Hex(made.credential),
        akName: ak.name.toString('hex'),
        ekFingerprint: sha256Hex(ek.raw),
      },
      credentialBlob: made.credentialBlob,
      encryptedSecret: made.encryptedSecret,
      credentialFile: tpm2ToolsCredentialFile(made),
    };
  }
}

function sha256Hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
