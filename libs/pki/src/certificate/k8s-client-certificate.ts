import { KeyAlgorithm } from '../csr/csr.types';
import { x509Time } from '../der/der-time';
import { explicit, sequence } from '../der/der-tlv';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';
import { IssuingAuthority, signedStructure } from './certificate-signer';
import {
  authorityKeyIdentifierExtension,
  basicConstraintsExtension,
  extendedKeyUsageExtension,
  keyIdentifierOf,
  keyUsageExtension,
  subjectKeyIdentifierExtension,
} from './extensions';
import { buildCaTemplate } from './leaf-template';
import { randomSerialNumber } from './serial-number';
import { encodeName, validateCommonName } from './subject-name';

/** Lifetime of a Kubernetes client credential (specification, "Certificate lifetimes"). */
export const K8S_CREDENTIAL_SECONDS = 600;

export interface K8sClientCertificateRequest {
  /** Kubernetes user name (`CN`). */
  readonly user: string;
  /** Kubernetes groups (`O`, one attribute each, in this order). */
  readonly groups: readonly string[];
  readonly publicKeySpkiDer: Buffer;
  readonly keyAlgorithm: KeyAlgorithm;
  readonly now?: Date;
}

export interface IssuedK8sClientCertificate {
  readonly certificateDer: Buffer;
  readonly serial: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/**
 * A 10-minute TLS client certificate for a Kubernetes API server: subject `O=<group>...,
 * CN=<user>` (how the API server's x509 authenticator reads user and groups), clientAuth EKU,
 * validity from issuance (no backdating beyond 60 s of clock skew) to issuance + 600 s.
 */
export function issueK8sClientCertificate(
  authority: IssuingAuthority,
  request: K8sClientCertificateRequest,
): IssuedK8sClientCertificate {
  const now = Math.floor((request.now ?? new Date()).getTime() / 1000) * 1000;
  if (now >= authority.notAfter.getTime() || now < authority.notBefore.getTime()) {
    throw new PkiError('ca_expired', 'the cluster CA is not valid now');
  }
  const notBefore = new Date(Math.max(now - 60_000, authority.notBefore.getTime()));
  const notAfter = new Date(
    Math.min(now + K8S_CREDENTIAL_SECONDS * 1000, authority.notAfter.getTime()),
  );
  let keyId: Buffer;
  try {
    keyId = keyIdentifierOf(request.publicKeySpkiDer);
  } catch {
    throw new PkiError('csr_invalid', 'public key is not a SubjectPublicKeyInfo');
  }
  const subject = encodeName([
    ...request.groups.map((group) => ({
      oid: Oids.organizationName,
      value: validateCommonName(group),
    })),
    { oid: Oids.commonName, value: validateCommonName(request.user) },
  ]);
  const ca = buildCaTemplate(authority);
  const serial = randomSerialNumber();
  const tbsDer = sequence(
    ca.version,
    serial.der,
    ca.algorithmAndIssuer,
    sequence(x509Time(notBefore), x509Time(notAfter)),
    subject,
    request.publicKeySpkiDer,
    explicit(
      3,
      sequence(
        basicConstraintsExtension(false),
        keyUsageExtension(
          request.keyAlgorithm === 'rsa'
            ? ['digitalSignature', 'keyEncipherment']
            : ['digitalSignature'],
        ),
        extendedKeyUsageExtension([Oids.ekuClientAuth]),
        authorityKeyIdentifierExtension(authority.keyIdentifier),
        subjectKeyIdentifierExtension(keyId),
      ),
    ),
  );
  return {
    certificateDer: signedStructure(tbsDer, authority.signer),
    serial: serial.hex,
    notBefore,
    notAfter,
  };
}
