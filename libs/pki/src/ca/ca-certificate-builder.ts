import { CertificateSigner, signedStructure } from '../certificate/certificate-signer';
import {
  authorityKeyIdentifierExtension,
  basicConstraintsExtension,
  keyIdentifierOf,
  keyUsageExtension,
  revocationPointerExtensions,
  subjectKeyIdentifierExtension,
  type RevocationPointers,
} from '../certificate/extensions';
import { randomSerialNumber } from '../certificate/serial-number';
import { integer } from '../der/der-primitives';
import { x509Time } from '../der/der-time';
import { explicit, sequence } from '../der/der-tlv';

export interface CaCertificateSpec {
  readonly subjectDer: Buffer;
  readonly issuerDer: Buffer;
  /** SKI of the signing CA (equal to the own SKI for a self-signed root). */
  readonly issuerKeyId: Buffer;
  readonly spkiDer: Buffer;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** BasicConstraints pathLenConstraint; omitted for the root. */
  readonly pathLength?: number;
  readonly signer: CertificateSigner;
  /** CDP / AIA pointing at the signing CA's CRL and certificate (issuing CA only). */
  readonly pointers?: RevocationPointers;
}

/**
 * A CA certificate: CA:true (critical), KeyUsage keyCertSign + cRLSign (critical), SKI, AKI,
 * and CDP / AIA when `pointers` carries URLs.
 */
export function buildCaCertificate(spec: CaCertificateSpec): Buffer {
  const tbs = sequence(
    explicit(0, integer(2)),
    randomSerialNumber().der,
    spec.signer.algorithmIdentifierDer,
    spec.issuerDer,
    sequence(x509Time(spec.notBefore), x509Time(spec.notAfter)),
    spec.subjectDer,
    spec.spkiDer,
    explicit(
      3,
      sequence(
        basicConstraintsExtension(true, spec.pathLength),
        keyUsageExtension(['keyCertSign', 'cRLSign']),
        subjectKeyIdentifierExtension(keyIdentifierOf(spec.spkiDer)),
        authorityKeyIdentifierExtension(spec.issuerKeyId),
        ...revocationPointerExtensions(spec.pointers ?? {}),
      ),
    ),
  );
  return signedStructure(tbs, spec.signer);
}
