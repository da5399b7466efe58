import { createHash, X509Certificate } from 'node:crypto';
import { PkiError } from '../pki.errors';
import { keyUsageOf, KeyUsageBits } from './scep-x509';

/** What GetCACert yields, sorted out as RFC 8894 section 3.5.1 describes. */
export interface ScepCaCertificates {
  /** Issuing CA first, root last (RA certificates excluded). */
  readonly chainDer: readonly Buffer[];
  /** The CA whose name goes into IssuerAndSubject (CertPoll). */
  readonly issuingCaDer: Buffer;
  /** Recipient of the EnvelopedData: the RA with keyEncipherment, else the CA. */
  readonly encryptionDer: Buffer;
  /** Signer of CertRep: the RA with digitalSignature, else the CA. */
  readonly signingDer: Buffer;
}

function invalid(message: string): PkiError {
  return new PkiError('scep_ca_certificate_invalid', message);
}

/** Lower-case hex without separators; accepts `AB:CD...` and spaces. */
export function normalizeFingerprint(fingerprint: string): string {
  return fingerprint.replace(/[\s:]/g, '').toLowerCase();
}

export function sha256Fingerprint(der: Buffer): string {
  return createHash('sha256').update(der).digest('hex');
}

function issuedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/**
 * Sorts GetCACert's certificates: CA certificates (basicConstraints cA) form the chain; others
 * are RA certificates, which must be issued by the issuing CA. With RAs, the encryption
 * certificate is the one with keyEncipherment and the signing one the one with
 * digitalSignature (a single RA does both); without, the CA does both. With `pin` (SHA-256
 * of a CA certificate's DER), one CA certificate must match it.
 */
export function selectCaCertificates(
  certsDer: readonly Buffer[],
  pin?: string,
): ScepCaCertificates {
  const parsed = certsDer.map((der) => ({ der, x509: new X509Certificate(der) }));
  const cas = parsed.filter((c) => c.x509.ca);
  const ras = parsed.filter((c) => !c.x509.ca);
  if (cas.length === 0) throw invalid('GetCACert returned no CA certificate (basicConstraints cA)');
  const issuing =
    (ras.length > 0 ? cas.find((ca) => issuedBy(ras[0].x509, ca.x509)) : undefined) ??
    cas.find(
      (ca) =>
        !cas.some(
          (other) => other !== ca && other.x509.checkIssued(ca.x509) && !selfIssued(other.x509),
        ),
    ) ??
    cas[0];
  for (const ra of ras) {
    if (!issuedBy(ra.x509, issuing.x509)) {
      throw invalid(
        `RA certificate ${ra.x509.subject.replace(/\n/g, ', ')} is not issued by the CA`,
      );
    }
  }
  const chain = [issuing];
  while (!selfIssued(chain[chain.length - 1].x509) && chain.length < cas.length) {
    const next = cas.find(
      (ca) => !chain.includes(ca) && chain[chain.length - 1].x509.checkIssued(ca.x509),
    );
    if (!next) break;
    chain.push(next);
  }
  if (pin !== undefined && pin.length > 0) {
    const wanted = normalizeFingerprint(pin);
    if (!chain.some((c) => sha256Fingerprint(c.der) === wanted)) {
      throw invalid(
        'the CA certificate from GetCACert does not match the pinned SHA-256 fingerprint',
      );
    }
  }
  const usage = (der: Buffer, bit: number): boolean => ((keyUsageOf(der) ?? 0) & bit) !== 0;
  const encryption =
    ras.find((r) => usage(r.der, KeyUsageBits.keyEncipherment)) ?? ras[0] ?? issuing;
  const signing = ras.find((r) => usage(r.der, KeyUsageBits.digitalSignature)) ?? encryption;
  return {
    chainDer: chain.map((c) => c.der),
    issuingCaDer: issuing.der,
    encryptionDer: encryption.der,
    signingDer: signing.der,
  };
}

function selfIssued(cert: X509Certificate): boolean {
  return cert.subject === cert.issuer;
}
