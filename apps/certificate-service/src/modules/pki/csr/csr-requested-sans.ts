import { isIP } from 'node:net';
import { contextTag, DerTag } from '../der/der-tag';
import { DerElement, expectTag, readChildren, readOid, readSingle } from '../der/der-reader';
import { Oids } from '../der/oids';
import { RequestedSan } from './csr.types';

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
      return { type: 'email', value: name.content.toString('latin1') };
    case contextTag(2, false):
      return { type: 'dns', value: name.content.toString('latin1') };
    case contextTag(6, false):
      return { type: 'uri', value: name.content.toString('latin1') };
    case contextTag(7, false): {
      const value = ipText(name.content);
      return value === undefined ? undefined : { type: 'ip', value };
    }
    case contextTag(0, true): {
      const [typeId, wrapped] = readChildren(name);
      if (readOid(typeId) !== Oids.upnOtherName || !wrapped) return undefined;
      const inner = expectTag(readChildren(wrapped)[0], DerTag.UTF8_STRING, 'UPN');
      return { type: 'upn', value: inner.content.toString('utf8') };
    }
    default:
      return undefined;
  }
}

/** SANs asked for in the PKCS#9 extensionRequest attribute; unknown name forms are skipped. */
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
        }
      }
    }
  }
  return sans;
}
