import { createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** Most intermediates an agent may send beside its EK certificate. */
export const EK_MAX_INTERMEDIATES = 4;
/** Largest EK, intermediate or vendor root certificate accepted (DER bytes). */
export const EK_MAX_CERTIFICATE_BYTES = 8192;

/** TCG EK Credential Profile: the EK certificate's extended key usage (tcg-kp-EKCertificate). */
const EK_CERTIFICATE_EKU = '2.23.133.8.1';
const RSAES_OAEP = '1.2.840.113549.1.1.7';
const Ext = {
  subjectDirectoryAttributes: '2.5.29.9',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  certificatePolicies: '2.5.29.32',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
} as const;
/** Extensions this check understands; any other one marked critical makes a certificate untrusted. */
const UNDERSTOOD = new Set<string>(Object.values(Ext));
const KU_KEY_ENCIPHERMENT = 0x20;
const KU_KEY_AGREEMENT = 0x08;
const KU_KEY_CERT_SIGN = 0x04;

export type EkChainFailure = 'no_roots' | 'malformed' | 'untrusted' | 'expired' | 'not_ek';

/** A registered TPM vendor root (or any CA certificate the admin chose to trust). */
export interface EkTrustAnchor {
  readonly id: string;
  readonly name: string;
  readonly der: Buffer;
}

export type EkChainResult =
  | {
      readonly ok: true;
      /** The DER INTEGER content octets of the serial, lowercase hex (a DER leading 00 is kept). */
      readonly serialHex: string;
      readonly ekPublicKey: KeyObject;
      readonly ekCertDer: Buffer;
      readonly anchor: EkTrustAnchor;
    }
  | { readonly ok: false; readonly reason: EkChainFailure };

/** One certificate, parsed twice: pkijs for the fields, node:crypto for names and signatures. */
export interface TrustCertificate {
  readonly der: Buffer;
  readonly x509: X509Certificate;
  readonly fields: pkijs.Certificate;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** basicConstraints cA (false when absent). */
  readonly ca: boolean;
  readonly pathLen: number | undefined;
  /** First byte of keyUsage; undefined when the extension is absent. */
  readonly keyUsage: number | undefined;
  /** Key purposes of extKeyUsage; undefined when absent. */
  readonly eku: readonly string[] | undefined;
  readonly unknownCritical: boolean;
  readonly selfIssued: boolean;
}

/** Parses one DER certificate; undefined when it is not a well-formed X.509 certificate. */
export function parseTrustCertificate(der: Buffer): TrustCertificate | undefined {
  if (!Buffer.isBuffer(der) || der.length === 0 || der.length > EK_MAX_CERTIFICATE_BYTES) {
    return undefined;
  }
  try {
    const asn = asn1js.fromBER(new Uint8Array(der));
    if (asn.offset !== der.length) return undefined;
    const fields = new pkijs.Certificate({ schema: asn.result });
    const x509 = new X509Certificate(der);
    let ca = false;
    let pathLen: number | undefined;
    let keyUsage: number | undefined;
    let eku: string[] | undefined;
    let unknownCritical = false;
    for (const ext of fields.extensions ?? []) {
      const value = ext.parsedValue as unknown;
      if (ext.extnID === Ext.basicConstraints) {
        if (!(value instanceof pkijs.BasicConstraints)) return undefined;
        ca = value.cA === true;
        pathLen = typeof value.pathLenConstraint === 'number' ? value.pathLenConstraint : undefined;
      } else if (ext.extnID === Ext.keyUsage) {
        if (!(value instanceof asn1js.BitString)) return undefined;
        keyUsage = value.valueBlock.valueHexView[0] ?? 0;
      } else if (ext.extnID === Ext.extKeyUsage) {
        if (!(value instanceof pkijs.ExtKeyUsage)) return undefined;
        eku = value.keyPurposes;
      } else if (ext.critical && !UNDERSTOOD.has(ext.extnID)) {
        unknownCritical = true;
      }
    }
    return {
      der,
      x509,
      fields,
      notBefore: fields.notBefore.value,
      notAfter: fields.notAfter.value,
      ca,
      pathLen,
      keyUsage,
      eku,
      unknownCritical,
      selfIssued: fields.subject.isEqual(fields.issuer),
    };
  } catch {
    return undefined;
  }
}

/** `child` names `parent` as its issuer (name, key identifiers) and `parent`'s key signed it. */
export function certificateIssuedBy(child: TrustCertificate, parent: TrustCertificate): boolean {
  try {
    return child.x509.checkIssued(parent.x509) && child.x509.verify(parent.x509.publicKey);
  } catch {
    return false;
  }
}

function signsCertificates(cert: TrustCertificate): boolean {
  return cert.keyUsage === undefined || (cert.keyUsage & KU_KEY_CERT_SIGN) !== 0;
}

/** A CA certificate: basicConstraints cA, or a self-signed X.509 v1 certificate (old roots). */
export function isCaCertificate(cert: TrustCertificate): boolean {
  if (!signsCertificates(cert)) return false;
  if (cert.ca) return true;
  return cert.fields.version === 0 && cert.selfIssued && certificateIssuedBy(cert, cert);
}

function validAt(cert: TrustCertificate, at: Date): boolean {
  const t = at.getTime();
  return t >= cert.notBefore.getTime() && t <= cert.notAfter.getTime();
}

function ekPublicKeyOf(cert: TrustCertificate): KeyObject | undefined {
  const spki = cert.fields.subjectPublicKeyInfo;
  try {
    // Some EK certificates name the RSA key id-RSAES-OAEP (its intended use) instead of
    // rsaEncryption; node:crypto does not read that SPKI, the PKCS#1 key inside is the same.
    if (spki.algorithm.algorithmId === RSAES_OAEP) {
      const pkcs1 = Buffer.from(spki.subjectPublicKey.valueBlock.valueHexView);
      return createPublicKey({ key: pkcs1, format: 'der', type: 'pkcs1' });
    }
    const key = cert.x509.publicKey;
    return key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The EK profile checks: not a CA, the EK purpose when an EKU is present, an encryption key. */
function looksLikeEk(cert: TrustCertificate, key: KeyObject | undefined): boolean {
  if (!key || cert.ca) return false;
  if (cert.eku !== undefined && !cert.eku.includes(EK_CERTIFICATE_EKU)) return false;
  if (cert.keyUsage === undefined) return true;
  if (cert.keyUsage & KU_KEY_CERT_SIGN) return false;
  return (cert.keyUsage & (KU_KEY_ENCIPHERMENT | KU_KEY_AGREEMENT)) !== 0;
}

interface Candidate {
  readonly cert: TrustCertificate;
  readonly anchor?: EkTrustAnchor;
}

/**
 * Depth-first search for a path from `child` to a trust anchor through unused intermediates.
 * Returns the CA certificates above the EK, anchor last. Bounded: at most 4 intermediates.
 */
function findPath(
  child: TrustCertificate,
  intermediates: readonly TrustCertificate[],
  anchors: readonly Candidate[],
  used: ReadonlySet<number>,
): Candidate[] | undefined {
  for (const anchor of anchors) {
    if (certificateIssuedBy(child, anchor.cert)) return [anchor];
  }
  for (let i = 0; i < intermediates.length; i++) {
    const next = intermediates[i];
    const usable = next.ca && !next.unknownCritical && signsCertificates(next);
    if (used.has(i) || !usable || !certificateIssuedBy(child, next)) continue;
    const rest = findPath(next, intermediates, anchors, new Set([...used, i]));
    if (rest) return [{ cert: next }, ...rest];
  }
  return undefined;
}

/** pathLenConstraint of every CA in the path (CAs above the EK, anchor last). */
function pathLengthsHold(path: readonly Candidate[]): boolean {
  return path.every(
    ({ cert }, index) =>
      cert.pathLen === undefined ||
      path.slice(0, index).filter((below) => !below.cert.selfIssued).length <= cert.pathLen,
  );
}

/**
 * Verifies an EK certificate up to one of `anchors` through the agent's intermediates, at `at`.
 * Never throws: garbage is `malformed`, a certificate that is no EK `not_ek`, no path (or a
 * certificate in it with a critical extension this check does not understand) `untrusted`, a
 * certificate of the path outside its validity at `at` `expired`.
 */
export function verifyEkChain(
  ekCertDer: Buffer,
  intermediatesDer: readonly Buffer[],
  anchors: readonly EkTrustAnchor[],
  at: Date = new Date(),
): EkChainResult {
  if (anchors.length === 0) return { ok: false, reason: 'no_roots' };
  if (!Array.isArray(intermediatesDer) || intermediatesDer.length > EK_MAX_INTERMEDIATES) {
    return { ok: false, reason: 'malformed' };
  }
  if (!(at instanceof Date) || Number.isNaN(at.getTime()))
    return { ok: false, reason: 'malformed' };
  const ek = parseTrustCertificate(ekCertDer);
  const intermediates = intermediatesDer.map(parseTrustCertificate);
  if (!ek || intermediates.some((c) => c === undefined)) return { ok: false, reason: 'malformed' };
  const ekPublicKey = ekPublicKeyOf(ek);
  if (!ekPublicKey || !looksLikeEk(ek, ekPublicKey)) return { ok: false, reason: 'not_ek' };
  if (ek.unknownCritical) return { ok: false, reason: 'untrusted' };

  const trusted: Candidate[] = [];
  for (const anchor of anchors) {
    const cert = parseTrustCertificate(anchor.der);
    if (cert && isCaCertificate(cert) && !cert.unknownCritical) trusted.push({ cert, anchor });
  }
  const path = findPath(ek, intermediates as TrustCertificate[], trusted, new Set());
  const anchor = path?.[path.length - 1]?.anchor;
  if (!path || !anchor || !pathLengthsHold(path)) return { ok: false, reason: 'untrusted' };
  if (![ek, ...path.map((c) => c.cert)].every((cert) => validAt(cert, at))) {
    return { ok: false, reason: 'expired' };
  }
  return {
    ok: true,
    serialHex: Buffer.from(ek.fields.serialNumber.valueBlock.valueHexView).toString('hex'),
    ekPublicKey,
    ekCertDer: ek.der,
    anchor,
  };
}
