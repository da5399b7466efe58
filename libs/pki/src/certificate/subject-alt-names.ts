import { RequestedSan } from '../csr/csr.types';
import { oid } from '../der/der-oid';
import { octetString } from '../der/der-primitives';
import { ia5Bytes, utf8String } from '../der/der-string';
import { explicit, implicit, sequence, tlv } from '../der/der-tlv';
import { contextTag } from '../der/der-tag';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';
import { extension } from './extensions';
import { ipAddressBytes } from './ip-address';
import { isSafeText } from './safe-text';

/** A SAN to put into a certificate; same shape as the names a CSR can request. */
export type SubjectAltName = RequestedSan;

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DNS = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`, 'i');
const EMAIL_LOCAL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$/;
const URI = /^[a-z][a-z0-9+.-]*:[\x21-\x7e]{1,2000}$/i;
const SID = /^S-1-\d{1,13}(?:-\d{1,10}){1,15}$/;

function invalid(type: string): PkiError {
  return new PkiError('san_invalid', `invalid ${type} subject alternative name`);
}

function isEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  return at > 0 && EMAIL_LOCAL.test(value.slice(0, at)) && DNS.test(value.slice(at + 1));
}

/** otherName: `[0] { type-id, [0] EXPLICIT value }`. */
function otherName(typeOid: string, valueDer: Buffer): Buffer {
  return tlv(contextTag(0, true), oid(typeOid), explicit(0, valueDer));
}

/** Validates one SAN and returns its GeneralName encoding. */
export function encodeGeneralName(san: SubjectAltName): Buffer {
  switch (san.type) {
    case 'dns':
      if (!DNS.test(san.value)) throw invalid('DNS');
      return implicit(2, false, ia5Bytes(san.value));
    case 'email':
      if (!isEmail(san.value)) throw invalid('email');
      return implicit(1, false, ia5Bytes(san.value));
    case 'uri':
      if (!URI.test(san.value)) throw invalid('URI');
      return implicit(6, false, ia5Bytes(san.value));
    case 'ip': {
      const bytes = ipAddressBytes(san.value);
      if (!bytes) throw invalid('IP');
      return implicit(7, false, bytes);
    }
    case 'upn': {
      const at = san.value.lastIndexOf('@');
      if (!isSafeText(san.value, 256) || at < 1 || at === san.value.length - 1)
        throw invalid('UPN');
      return otherName(Oids.upnOtherName, utf8String(san.value));
    }
  }
}

/** SubjectAltName extension, non-critical (the subject DN is never empty here). */
export function subjectAltNameExtension(sans: readonly SubjectAltName[]): Buffer {
  return extension(Oids.subjectAltName, false, sequence(...sans.map(encodeGeneralName)));
}

export function isValidSid(sid: string): boolean {
  return SID.test(sid);
}

/**
 * NTDS CA security extension (KB5014754 strong certificate mapping): an otherName
 * 1.3.6.1.4.1.311.25.2.1 whose value is the SID string as an OCTET STRING.
 */
export function sidExtension(sid: string): Buffer {
  if (!isValidSid(sid)) throw new PkiError('san_invalid', 'invalid SID (expected S-1-...)');
  const value = sequence(otherName(Oids.ntdsObjectSid, octetString(Buffer.from(sid, 'latin1'))));
  return extension(Oids.ntdsCaSecurityExt, false, value);
}
