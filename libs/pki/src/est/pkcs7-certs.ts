import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { PkiError } from '../pki.errors';

const SIGNED_DATA = '1.2.840.113549.1.7.2';
const DATA = '1.2.840.113549.1.7.1';

/** At most this many certificates are read from one certs-only answer. */
export const MAX_PKCS7_CERTIFICATES = 32;

function invalid(message: string): PkiError {
  return new PkiError('est_answer_invalid', message);
}

/**
 * The certificates of a "certs-only" CMS SignedData (RFC 5652, RFC 7030 section 4.1.3): no
 * signer infos, no content. Anything else (another content type, attribute certificates,
 * garbage, trailing bytes) is refused with `est_answer_invalid`.
 */
export function readCertsOnlyPkcs7(der: Buffer): Buffer[] {
  const parsed = asn1js.fromBER(new Uint8Array(der));
  if (parsed.offset === -1 || parsed.offset !== der.length) {
    throw invalid('PKCS#7 answer is not one DER structure');
  }
  let certificates: pkijs.SignedData['certificates'];
  try {
    const info = new pkijs.ContentInfo({ schema: parsed.result });
    if (info.contentType !== SIGNED_DATA) throw invalid('PKCS#7 answer is not SignedData');
    certificates = new pkijs.SignedData({ schema: info.content }).certificates;
  } catch (error) {
    if (error instanceof PkiError) throw error;
    throw invalid('PKCS#7 answer is malformed');
  }
  if (!certificates || certificates.length === 0) {
    throw invalid('PKCS#7 answer holds no certificate');
  }
  if (certificates.length > MAX_PKCS7_CERTIFICATES) {
    throw invalid(`PKCS#7 answer holds more than ${MAX_PKCS7_CERTIFICATES} certificates`);
  }
  return certificates.map((certificate) => {
    if (!(certificate instanceof pkijs.Certificate)) {
      throw invalid('PKCS#7 answer holds a non-X.509 certificate');
    }
    return Buffer.from(certificate.toSchema().toBER(false));
  });
}

/** A certs-only SignedData holding `certificates` (DER), as an EST server answers. */
export function buildCertsOnlyPkcs7(certificates: readonly Buffer[]): Buffer {
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: DATA }),
    certificates: certificates.map((der) => pkijs.Certificate.fromBER(new Uint8Array(der))),
    signerInfos: [],
    digestAlgorithms: [],
  });
  const info = new pkijs.ContentInfo({
    contentType: SIGNED_DATA,
    content: signedData.toSchema(true),
  });
  return Buffer.from(info.toSchema().toBER(false));
}

/**
 * Decodes a base64 body (RFC 7030: `Content-Transfer-Encoding: base64`, line breaks allowed).
 * Anything but base64 characters and whitespace is refused.
 */
export function decodeBase64Body(body: Uint8Array): Buffer {
  const text = Buffer.from(body).toString('latin1').replace(/\s+/g, '');
  if (text.length === 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw invalid('answer body is not base64');
  }
  return Buffer.from(text, 'base64');
}

/** Base64 with 64-character lines, as EST bodies are written. */
export function encodeBase64Body(der: Buffer): string {
  return der.toString('base64').replace(/.{64}/g, '$&\r\n');
}
