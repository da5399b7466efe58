import { X509Certificate } from 'node:crypto';
import { DerTag, contextTag } from '../der/der-tag';
import { expectTag, readChildren, readOid, readSingle, type DerElement } from '../der/der-reader';
import { AppAttestRefusal } from './app-attest-refusal';

/** Apple's App Attest nonce extension on the credential certificate. */
export const APP_ATTEST_NONCE_OID = '1.2.840.113635.100.8.2';

/** Most certificates accepted in `x5c` (credential certificate and intermediates). */
export const MAX_X5C = 4;

function parse(der: Buffer, what: string): X509Certificate {
  try {
    return new X509Certificate(der);
  } catch {
    throw new AppAttestRefusal(`${what} is not a certificate`);
  }
}

function checkValidity(cert: X509Certificate, what: string, now: Date): void {
  const from = new Date(cert.validFrom).getTime();
  const to = new Date(cert.validTo).getTime();
  if (!(from <= now.getTime() && now.getTime() <= to)) {
    throw new AppAttestRefusal(`${what} is outside its validity period`);
  }
}

function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  return issuer.ca && cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

/**
 * `x5c` = [credential certificate, intermediate...] must chain to one of `roots`: each link
 * issued and signed by the next (a CA), the last by a configured root, every certificate
 * (roots included) valid at `now`. Returns the credential certificate.
 */
export function verifyX5c(
  x5c: readonly Buffer[],
  roots: readonly X509Certificate[],
  now: Date,
): X509Certificate {
  if (x5c.length < 1 || x5c.length > MAX_X5C) {
    throw new AppAttestRefusal(`x5c must hold 1 to ${MAX_X5C} certificates`);
  }
  const chain = x5c.map((der, i) => parse(der, `x5c[${i}]`));
  chain.forEach((cert, i) => checkValidity(cert, `x5c[${i}]`, now));
  for (let i = 0; i + 1 < chain.length; i++) {
    if (!signedBy(chain[i], chain[i + 1])) {
      throw new AppAttestRefusal(`x5c[${i}] is not issued and signed by x5c[${i + 1}]`);
    }
  }
  const last = chain[chain.length - 1];
  const root = roots.find((r) => signedBy(last, r));
  if (!root) throw new AppAttestRefusal('x5c does not chain to a configured App Attest root');
  checkValidity(root, 'the App Attest root', now);
  return chain[0];
}

/** The tbsCertificate extensions, as (oid, value OCTET STRING content) pairs. */
function extensionsOf(certificateDer: Buffer): Map<string, Buffer> {
  const certificate = readSingle(certificateDer);
  const tbs = expectTag(readChildren(certificate)[0], DerTag.SEQUENCE, 'tbsCertificate');
  const wrapper = readChildren(tbs).find((e) => e.tag === contextTag(3, true));
  const out = new Map<string, Buffer>();
  if (!wrapper) return out;
  const list = expectTag(readChildren(wrapper)[0], DerTag.SEQUENCE, 'Extensions');
  for (const ext of readChildren(list)) {
    const fields: DerElement[] = readChildren(expectTag(ext, DerTag.SEQUENCE, 'Extension'));
    const value = expectTag(fields[fields.length - 1], DerTag.OCTET_STRING, 'extnValue');
    out.set(readOid(fields[0]), value.content);
  }
  return out;
}

/** The nonce of extension 1.2.840.113635.100.8.2: SEQUENCE { [1] EXPLICIT OCTET STRING }. */
export function credentialNonce(certificateDer: Buffer): Buffer {
  let value: Buffer | undefined;
  try {
    value = extensionsOf(certificateDer).get(APP_ATTEST_NONCE_OID);
    if (!value) throw new AppAttestRefusal('credential certificate without the nonce extension');
    const outer = expectTag(readSingle(value), DerTag.SEQUENCE, 'nonce SEQUENCE');
    const tagged = expectTag(readChildren(outer)[0], contextTag(1, true), 'nonce [1]');
    const children = readChildren(tagged);
    if (children.length !== 1) throw new AppAttestRefusal('malformed nonce extension');
    return expectTag(children[0], DerTag.OCTET_STRING, 'nonce OCTET STRING').content;
  } catch (error) {
    if (error instanceof AppAttestRefusal) throw error;
    throw new AppAttestRefusal(`malformed credential certificate (${(error as Error).message})`);
  }
}

/** The uncompressed P-256 point (0x04 | X | Y) of the credential certificate's key. */
export function uncompressedPoint(cert: X509Certificate): Buffer {
  const key = cert.publicKey;
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new AppAttestRefusal('credential key is not EC P-256');
  }
  const jwk = key.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  if (x.length !== 32 || y.length !== 32) throw new AppAttestRefusal('malformed credential key');
  return Buffer.concat([Buffer.from([0x04]), x, y]);
}
