import { normalizeSerialHex } from '../certificate/serial-number';
import { contextTag, DerTag } from '../der/der-tag';
import { DerElement, expectTag, readChildren, readOid, readSingle } from '../der/der-reader';

/** OCSP object identifiers (RFC 6960) and the CertID hash algorithms we answer for. */
export const OCSP_OIDS = {
  basicResponse: '1.3.6.1.5.5.7.48.1.1',
  nonce: '1.3.6.1.5.5.7.48.1.2',
} as const;

export const CERT_ID_HASHES: Readonly<Record<string, 'sha1' | 'sha256' | 'sha384' | 'sha512'>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/** Requests per OCSPRequest we answer (a client asks for one, a TLS server for its chain). */
export const OCSP_MAX_REQUESTS = 16;
/** Longest nonce accepted (RFC 8954: 1..32 octets; some clients send a little more). */
export const OCSP_MAX_NONCE_BYTES = 64;

/** One CertID of the request; `der` is echoed byte for byte in the answer. */
export interface OcspCertId {
  readonly der: Buffer;
  /** Undefined for a hash algorithm we do not compute (answered `unknown`). */
  readonly hash: 'sha1' | 'sha256' | 'sha384' | 'sha512' | undefined;
  readonly issuerNameHash: Buffer;
  readonly issuerKeyHash: Buffer;
  /** Lowercase minimal hex; undefined for a negative or oversized serial. */
  readonly serial: string | undefined;
}

export interface ParsedOcspRequest {
  readonly certIds: readonly OcspCertId[];
  /** The whole nonce Extension of the request, echoed in the response. */
  readonly nonceExtension?: Buffer;
}

function optionalTagged(children: DerElement[], n: number): DerElement | undefined {
  return children[0]?.tag === contextTag(n, true) ? children.shift() : undefined;
}

function readCertId(element: DerElement): OcspCertId {
  const [algorithm, nameHash, keyHash, serial, ...rest] = readChildren(
    expectTag(element, DerTag.SEQUENCE, 'CertID'),
  );
  if (rest.length > 0) throw new RangeError('CertID has extra fields');
  const hashOid = readOid(readChildren(expectTag(algorithm, DerTag.SEQUENCE, 'hashAlgorithm'))[0]);
  const serialContent = expectTag(serial, DerTag.INTEGER, 'serialNumber').content;
  const negative = serialContent.length === 0 || (serialContent[0] & 0x80) !== 0;
  return {
    der: element.der,
    hash: CERT_ID_HASHES[hashOid],
    issuerNameHash: expectTag(nameHash, DerTag.OCTET_STRING, 'issuerNameHash').content,
    issuerKeyHash: expectTag(keyHash, DerTag.OCTET_STRING, 'issuerKeyHash').content,
    serial:
      negative || serialContent.length > 21
        ? undefined
        : normalizeSerialHex(serialContent.toString('hex')),
  };
}

function nonceOf(extensions: DerElement | undefined): Buffer | undefined {
  if (!extensions) return undefined;
  const list = readChildren(expectTag(readChildren(extensions)[0], DerTag.SEQUENCE, 'Extensions'));
  for (const extension of list) {
    const fields = readChildren(expectTag(extension, DerTag.SEQUENCE, 'Extension'));
    if (readOid(fields[0]) !== OCSP_OIDS.nonce) continue;
    const value = expectTag(fields[fields.length - 1], DerTag.OCTET_STRING, 'extnValue');
    if (value.content.length === 0 || value.content.length > OCSP_MAX_NONCE_BYTES + 2) {
      throw new RangeError('nonce length out of bounds');
    }
    return extension.der;
  }
  return undefined;
}

/**
 * Parses a DER OCSPRequest (RFC 6960 4.1.1). Throws on anything malformed (the caller answers
 * `malformedRequest`); a request signature is ignored (not required, RFC 6960 4.1.2).
 */
export function parseOcspRequest(der: Buffer): ParsedOcspRequest {
  const [tbs] = readChildren(expectTag(readSingle(der), DerTag.SEQUENCE, 'OCSPRequest'));
  const fields = readChildren(expectTag(tbs, DerTag.SEQUENCE, 'TBSRequest'));
  optionalTagged(fields, 0); // version, v1
  optionalTagged(fields, 1); // requestorName
  const list = readChildren(expectTag(fields.shift(), DerTag.SEQUENCE, 'requestList'));
  const extensions = optionalTagged(fields, 2);
  if (fields.length > 0) throw new RangeError('TBSRequest has extra fields');
  if (list.length === 0 || list.length > OCSP_MAX_REQUESTS) {
    throw new RangeError('requestList size out of bounds');
  }
  const certIds = list.map((request) => {
    const [certId] = readChildren(expectTag(request, DerTag.SEQUENCE, 'Request'));
    return readCertId(certId);
  });
  const nonceExtension = nonceOf(extensions);
  return nonceExtension ? { certIds, nonceExtension } : { certIds };
}
