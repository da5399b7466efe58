import { isIP } from 'node:net';
import { isCleanText } from '../certificate/safe-text';
import { contextTag, DerTag } from '../der/der-tag';
import { DerElement, expectTag, readChildren, readOid, readSingle } from '../der/der-reader';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';
import { RequestedSan } from './csr.types';

/** Most subject alternative names a CSR may ask for. */
export const MAX_REQUESTED_SANS = 64;

/** Upper bounds in characters: DNS name length, ub-emailaddress-length, a URL, a UPN. */
const SAN_MAX_LENGTH = { dns: 253, email: 255, uri: 2048, upn: 256 } as const;

/** IA5String names (dNSName, rfc822Name, URI): visible ASCII only. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

function sanInvalid(type: RequestedSan['type'], message: string): PkiError {
  return new PkiError('san_invalid', `requested ${type} subject alternative name ${message}`, {
    field: `subject_alt_name.${type}`,
  });
}

function ia5Name(type: 'dns' | 'email' | 'uri', content: Buffer): RequestedSan {
  const value = content.toString('latin1');
  const max = SAN_MAX_LENGTH[type];
  if (value.length > max || !VISIBLE_ASCII.test(value)) {
    throw sanInvalid(type, `must be 1-${max} visible ASCII characters`);
  }
  return { type, value };
}

function upnName(content: Buffer): RequestedSan {
  const value = content.toString('utf8');
  if (!Buffer.from(value, 'utf8').equals(content) || !isCleanText(value, SAN_MAX_LENGTH.upn)) {
    throw sanInvalid(
      'upn',
      `must be 1-${SAN_MAX_LENGTH.upn} characters without control characters`,
    );
  }
  return { type: 'upn', value };
}

function ipText(bytes: Buffer): string | undefined {
  if (bytes.length === 4) return [...bytes].join('.');
  if (bytes.length !== 16) return undefined;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  const text = groups.join(':');
  return isIP(text) === 6 ? text : undefined;
}

function readGeneralName(name: DerElement): RequestedSan | undefined {
  switch (name.tag) {
    case contextTag(1, false):
      return ia5Name('email', name.content);
    case contextTag(2, false):
      return ia5Name('dns', name.content);
    case contextTag(6, false):
      return ia5Name('uri', name.content);
    case contextTag(7, false): {
      const value = ipText(name.content);
      return value === undefined ? undefined : { type: 'ip', value };
    }
    case contextTag(0, true): {
      const [typeId, wrapped] = readChildren(name);
      if (readOid(typeId) !== Oids.upnOtherName || !wrapped) return undefined;
      return upnName(expectTag(readChildren(wrapped)[0], DerTag.UTF8_STRING, 'UPN').content);
    }
    default:
      return undefined;
  }
}

/**
 * SANs asked for in the PKCS#9 extensionRequest attribute; unknown name forms are skipped.
 * Throws PkiError `san_invalid` for more than 64 names, an over-long name or a name with
 * control characters.
 */
export function readRequestedSans(attributes: DerElement | undefined): RequestedSan[] {
  if (!attributes) return [];
  const sans: RequestedSan[] = [];
  for (const attribute of readChildren(attributes)) {
    const [type, values] = readChildren(expectTag(attribute, DerTag.SEQUENCE, 'attribute'));
    if (readOid(type) !== Oids.extensionRequest) continue;
    for (const extensions of readChildren(expectTag(values, DerTag.SET, 'attribute values'))) {
      for (const extension of readChildren(expectTag(extensions, DerTag.SEQUENCE, 'Extensions'))) {
        const fields = readChildren(expectTag(extension, DerTag.SEQUENCE, 'Extension'));
        if (readOid(fields[0]) !== Oids.subjectAltName) continue;
        const value = expectTag(fields[fields.length - 1], DerTag.OCTET_STRING, 'extnValue');
        const names = expectTag(readSingle(value.content), DerTag.SEQUENCE, 'GeneralNames');
        for (const name of readChildren(names)) {
          const san = readGeneralName(name);
          if (san) sans.push(san);
          if (sans.length > MAX_REQUESTED_SANS) {
            throw new PkiError('san_invalid', `more than ${MAX_REQUESTED_SANS} requested names`, {
              field: 'subject_alt_name',
            });
          }
        }
      }
    }
  }
  return sans;
}
