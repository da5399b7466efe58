import { DerTag } from '../der/der-tag';
import { DerElement, expectTag, readChildren, readOid } from '../der/der-reader';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';

/** Decodes a DirectoryString; unknown string types give undefined. */
export function decodeDirectoryString(value: DerElement): string | undefined {
  switch (value.tag) {
    case DerTag.UTF8_STRING: {
      const text = value.content.toString('utf8');
      if (!Buffer.from(text, 'utf8').equals(value.content)) {
        throw new PkiError('der_invalid', 'malformed UTF8String');
      }
      return text;
    }
    case DerTag.PRINTABLE_STRING:
    case DerTag.IA5_STRING:
    case DerTag.T61_STRING:
      return value.content.toString('latin1');
    case DerTag.BMP_STRING: {
      if (value.content.length % 2 !== 0) throw new PkiError('der_invalid', 'malformed BMPString');
      return Buffer.from(value.content).swap16().toString('utf16le');
    }
    default:
      return undefined;
  }
}

/** The most specific (last) commonName of a Name, if any. */
export function readCommonName(name: DerElement): string | undefined {
  let commonName: string | undefined;
  for (const rdn of readChildren(expectTag(name, DerTag.SEQUENCE, 'Name'))) {
    for (const attribute of readChildren(expectTag(rdn, DerTag.SET, 'RDN'))) {
      const [type, value] = readChildren(expectTag(attribute, DerTag.SEQUENCE, 'attribute'));
      if (readOid(type) === Oids.commonName && value) {
        commonName = decodeDirectoryString(value) ?? commonName;
      }
    }
  }
  return commonName;
}
