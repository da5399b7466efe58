import { X509Certificate } from 'node:crypto';
import {
  parseTpmAttest,
  parseTpmPublic,
  TpmFormatError,
  type TpmAttest,
  type TpmPublic,
} from '@platform/pki';
import { TpmAttestationError } from './tpm-attestation.errors';

/** Parses a TPM public area; malformed → 400 `tpm_evidence_invalid` naming the field. */
export function decodeTpmPublic(field: string, bytes: Buffer): TpmPublic {
  try {
    return parseTpmPublic(bytes);
  } catch (error) {
    throw invalid(field, error);
  }
}

export function decodeTpmAttest(field: string, bytes: Buffer): TpmAttest {
  try {
    return parseTpmAttest(bytes);
  } catch (error) {
    throw invalid(field, error);
  }
}

/** The EK certificate's RSA public key; anything else → 400. */
export function decodeEkCertificate(bytes: Buffer): X509Certificate {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(bytes);
  } catch {
    throw new TpmAttestationError('tpm_evidence_invalid', {
      field: 'ek_certificate',
      problem: 'not a DER X.509 certificate',
    });
  }
  if (certificate.publicKey.asymmetricKeyType !== 'rsa') {
    throw new TpmAttestationError('tpm_evidence_invalid', {
      field: 'ek_certificate',
      problem: 'only RSA endorsement keys are supported',
    });
  }
  return certificate;
}

/** Attributes an attestation key must have: a restricted, non-duplicable signing key. */
export function isAttestationKey(ak: TpmPublic): boolean {
  const a = ak.attributes;
  return (
    a.fixedTPM && a.fixedParent && a.sensitiveDataOrigin && a.restricted && a.sign && !a.decrypt
  );
}

function invalid(field: string, error: unknown): TpmAttestationError {
  const problem = error instanceof TpmFormatError ? error.message : 'unreadable';
  return new TpmAttestationError('tpm_evidence_invalid', { field, problem });
}
