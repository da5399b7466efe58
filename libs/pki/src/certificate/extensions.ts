import { hash } from 'node:crypto';
import { DerTag } from '../der/der-tag';
import { readBitStringBytes, readChildren, readSingle } from '../der/der-reader';
import { boolean, integer, octetString } from '../der/der-primitives';
import { oid } from '../der/der-oid';
import { ia5Bytes } from '../der/der-string';
import { implicit, sequence } from '../der/der-tlv';
import { Oids } from '../der/oids';
import { encodeKeyUsage, KeyUsageBit } from './key-usage';

/** Extension ::= SEQUENCE { extnID, critical DEFAULT FALSE, extnValue OCTET STRING }. */
export function extension(extensionOid: string, critical: boolean, valueDer: Buffer): Buffer {
  return critical
    ? sequence(oid(extensionOid), boolean(true), octetString(valueDer))
    : sequence(oid(extensionOid), octetString(valueDer));
}

/** Critical BasicConstraints; `pathLength` only for CAs. */
export function basicConstraintsExtension(ca: boolean, pathLength?: number): Buffer {
  const fields = ca ? [boolean(true)] : [];
  if (ca && pathLength !== undefined) fields.push(integer(pathLength));
  return extension(Oids.basicConstraints, true, sequence(...fields));
}

export function keyUsageExtension(bits: readonly KeyUsageBit[]): Buffer {
  return extension(Oids.keyUsage, true, encodeKeyUsage(bits));
}

export function extendedKeyUsageExtension(purposeOids: readonly string[]): Buffer {
  return extension(Oids.extKeyUsage, false, sequence(...purposeOids.map((p) => oid(p))));
}

export function subjectKeyIdentifierExtension(keyId: Buffer): Buffer {
  return extension(Oids.subjectKeyIdentifier, false, octetString(keyId));
}

export function authorityKeyIdentifierExtension(keyId: Buffer): Buffer {
  return extension(Oids.authorityKeyIdentifier, false, sequence(implicit(0, false, keyId)));
}

/** CRL distribution points with one fullName URI per point. */
export function crlDistributionPointsExtension(urls: readonly string[]): Buffer {
  const points = urls.map((url) => {
    const uri = implicit(6, false, ia5Bytes(url));
    return sequence(implicit(0, true, implicit(0, true, uri)));
  });
  return extension(Oids.cRLDistributionPoints, false, sequence(...points));
}

/**
 * AuthorityInfoAccess (RFC 5280 4.2.2.1): `caIssuers` URLs of the issuer certificate and
 * `ocsp` responder URLs, each as a uniformResourceIdentifier.
 */
export function authorityInfoAccessExtension(
  caIssuersUrls: readonly string[],
  ocspUrls: readonly string[] = [],
): Buffer {
  const access = (method: string, url: string) =>
    sequence(oid(method), implicit(6, false, ia5Bytes(url)));
  return extension(
    Oids.authorityInfoAccess,
    false,
    sequence(
      ...ocspUrls.map((url) => access(Oids.adOcsp, url)),
      ...caIssuersUrls.map((url) => access(Oids.adCaIssuers, url)),
    ),
  );
}

/** CDP and AIA of one issuer's certificates, omitted when no URL is given. */
export interface RevocationPointers {
  /** CRL distribution point URLs (one point each). */
  readonly crlDistributionUrls?: readonly string[];
  /** AIA `caIssuers` URLs where the issuer's certificate can be fetched. */
  readonly caIssuersUrls?: readonly string[];
  /** AIA `ocsp` responder URLs. */
  readonly ocspUrls?: readonly string[];
}

/** The CDP and AIA extensions for `pointers` (empty when none is configured). */
export function revocationPointerExtensions(pointers: RevocationPointers): Buffer[] {
  const out: Buffer[] = [];
  const cdp = pointers.crlDistributionUrls ?? [];
  if (cdp.length > 0) out.push(crlDistributionPointsExtension(cdp));
  const caIssuers = pointers.caIssuersUrls ?? [];
  const ocsp = pointers.ocspUrls ?? [];
  if (caIssuers.length + ocsp.length > 0) out.push(authorityInfoAccessExtension(caIssuers, ocsp));
  return out;
}

/** RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey BIT STRING value. */
export function keyIdentifierOf(spkiDer: Buffer): Buffer {
  const [, key] = readChildren(readSingle(spkiDer));
  if (key?.tag !== DerTag.BIT_STRING) throw new RangeError('not a SubjectPublicKeyInfo');
  return hash('sha1', readBitStringBytes(key), 'buffer');
}
