import { X509Certificate } from 'node:crypto';
import {
  certificateIssuedBy,
  EK_MAX_CERTIFICATE_BYTES,
  isCaCertificate,
  parseTrustCertificate,
  sha256Fingerprint,
} from '@platform/pki';

export interface VendorRootFacts {
  readonly der: Buffer;
  readonly fingerprint: string;
  /** node:crypto's subject, one RDN per line, joined with ", " (empty for an empty subject). */
  readonly subject: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly selfSigned: boolean;
}

export type VendorRootInspection =
  | { readonly ok: true; readonly root: VendorRootFacts }
  | { readonly ok: false; readonly problem: string };

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([A-Za-z0-9+/=\r\n]*?)-----END \1-----/g;

/** The one CERTIFICATE block of `pem` as DER, or what is wrong with the text. */
export function singleCertificateDer(pem: string): { der: Buffer } | { problem: string } {
  const blocks = [...pem.matchAll(PEM_BLOCK)];
  const rest = pem.replace(PEM_BLOCK, '').trim();
  if (blocks.length === 0) return { problem: 'no PEM CERTIFICATE block found' };
  if (rest !== '') return { problem: 'text outside the PEM block' };
  if (blocks.length > 1)
    return { problem: 'send one certificate per request (the PEM holds several)' };
  const [, label, body] = blocks[0];
  if (label !== 'CERTIFICATE') return { problem: `a PEM ${label} block is not a certificate` };
  const base64 = body.replace(/\s/g, '');
  const der = Buffer.from(base64, 'base64');
  if (der.length === 0 || der.toString('base64') !== base64)
    return { problem: 'invalid base64 in the PEM block' };
  return { der };
}

/**
 * Whether a certificate may be registered as a TPM vendor root: a well-formed CA certificate
 * (basicConstraints cA=true, keyCertSign when keyUsage is present; or a self-signed X.509 v1
 * root), valid at `now`, without a critical extension the EK check does not understand, and —
 * when it names itself as issuer — with a self-signature that verifies. It need not be
 * self-signed: registering a vendor's intermediate trusts only what that intermediate signs.
 */
export function inspectVendorRoot(der: Buffer, now: Date = new Date()): VendorRootInspection {
  const cert = parseTrustCertificate(der);
  if (!cert) {
    return {
      ok: false,
      problem: `not a well-formed X.509 certificate of at most ${EK_MAX_CERTIFICATE_BYTES} bytes`,
    };
  }
  if (!isCaCertificate(cert)) {
    return {
      ok: false,
      problem:
        'not a CA certificate (needs basicConstraints cA=true with keyCertSign, or a self-signed v1 root)',
    };
  }
  if (cert.unknownCritical) {
    return {
      ok: false,
      problem: 'it carries a critical extension the EK chain check does not understand',
    };
  }
  if (now.getTime() > cert.notAfter.getTime()) return { ok: false, problem: 'it has expired' };
  if (now.getTime() < cert.notBefore.getTime())
    return { ok: false, problem: 'it is not valid yet' };
  const namesItself = cert.selfIssued && selfIssuedByKeyIds(cert.x509);
  const selfSigned = cert.selfIssued && certificateIssuedBy(cert, cert);
  if (namesItself && !selfSigned)
    return { ok: false, problem: 'its self-signature does not verify' };
  return {
    ok: true,
    root: {
      der: cert.der,
      fingerprint: sha256Fingerprint(cert.der),
      subject: (cert.x509.subject ?? '').split('\n').filter(Boolean).join(', '),
      notBefore: cert.notBefore,
      notAfter: cert.notAfter,
      selfSigned,
    },
  };
}

/** Subject equals issuer and the key identifiers (when present) match: a root, not a cross-cert. */
function selfIssuedByKeyIds(x509: X509Certificate): boolean {
  try {
    return x509.checkIssued(x509);
  } catch {
    return false;
  }
}
