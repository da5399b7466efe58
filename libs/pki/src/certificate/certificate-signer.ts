import { bitString } from '../der/der-primitives';
import { sequence } from '../der/der-tlv';

/** Signs TBS structures for one CA key. Implementations keep the private key to themselves. */
export interface CertificateSigner {
  /** AlgorithmIdentifier DER placed in the TBS and around the signature. */
  readonly algorithmIdentifierDer: Buffer;
  sign(tbs: Buffer): Buffer;
}

/** The issuing CA as the builders see it. */
export interface IssuingAuthority {
  /** Subject Name DER of the issuing CA certificate (becomes the issuer of what it signs). */
  readonly nameDer: Buffer;
  /** Its SubjectKeyIdentifier (becomes the AuthorityKeyIdentifier). */
  readonly keyIdentifier: Buffer;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly certificateDer: Buffer;
  readonly signer: CertificateSigner;
}

/** Certificate / CertificateList: SEQUENCE { tbs, signatureAlgorithm, signatureValue }. */
export function signedStructure(tbs: Buffer, signer: CertificateSigner): Buffer {
  return sequence(tbs, signer.algorithmIdentifierDer, bitString(signer.sign(tbs)));
}
