import { isCleanText } from '../certificate/safe-text';
import { DerTag } from '../der/der-tag';
import { DerElement, expectTag, readChildren, readOid } from '../der/der-reader';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';

interface AttributeBound {
  readonly name: string;
  readonly maxLength: number;
}

/**
 * Upper bounds of subject attributes in characters: RFC 5280 appendix A (`ub-*`) where it
 * has one; 64 for the X520name attributes (ub-name 32768 is no useful bound) and DNS label
 * length for domainComponent.
 */
const SUBJECT_ATTRIBUTES: Readonly<Record<string, AttributeBound>> = {
  [Oids.commonName]: { name: 'CN', maxLength: 64 },
  '2.5.4.4': { name: 'surname', maxLength: 64 },
  '2.5.4.5': { name: 'serialNumber', maxLength: 64 },
  '2.5.4.6': { name: 'C', maxLength: 2 },
  '2.5.4.7': { name: 'L', maxLength: 128 },
  '2.5.4.8': { name: 'ST', maxLength: 128 },
  '2.5.4.9': { name: 'street', maxLength: 128 },
  [Oids.organizationName]: { name: 'O', maxLength: 64 },
  '2.5.4.11': { name: 'OU', maxLength: 64 },
  '2.5.4.12': { name: 'title', maxLength: 64 },
  '2.5.4.42': { name: 'givenName', maxLength: 64 },
  '2.5.4.43': { name: 'initials', maxLength: 64 },
  '2.5.4.44': { name: 'generationQualifier', maxLength: 64 },
  '2.5.4.46': { name: 'dnQualifier', maxLength: 64 },
  '2.5.4.65': { name: 'pseudonym', maxLength: 128 },
  '1.2.840.113549.1.9.1': { name: 'emailAddress', maxLength: 255 },
  '0.9.2342.19200300.100.1.1': { name: 'UID', maxLength: 64 },
  '0.9.2342.19200300.100.1.25': { name: 'DC', maxLength: 63 },
};

/** Bound of any other attribute type. */
const OTHER_ATTRIBUTE_MAX_LENGTH = 128;

/** Most attributes a subject may carry (real agents send one to eight). */
export const MAX_SUBJECT_ATTRIBUTES = 32;

const VISIBLE_STRING = 0x1a;
const NUMERIC_STRING = 0x12;
const UNIVERSAL_STRING = 0x1c;

function decodeUtf32Be(content: Buffer): string {
  if (content.length % 4 !== 0) throw new PkiError('der_invalid', 'malformed UniversalString');
  let text = '';
  for (let i = 0; i < content.length; i += 4) {
    const codePoint = content.readUInt32BE(i);
    if (codePoint > 0x10ffff) throw new PkiError('der_invalid', 'malformed UniversalString');
    text += String.fromCodePoint(codePoint);
  }
  return text;
}

/** Decodes a DirectoryString (and the other X.520 string types); other types give undefined. */
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
    case VISIBLE_STRING:
    case NUMERIC_STRING:
      return value.content.toString('latin1');
    case DerTag.BMP_STRING: {
      if (value.content.length % 2 !== 0) throw new PkiError('der_invalid', 'malformed BMPString');
      return Buffer.from(value.content).swap16().toString('utf16le');
    }
    case UNIVERSAL_STRING:
      return decodeUtf32Be(value.content);
    default:
      return undefined;
  }
}

function subjectInvalid(name: string, message: string, maxLength?: number): PkiError {
  return new PkiError('subject_invalid', `subject ${name} ${message}`, {
    field: `subject.${name}`,
    ...(maxLength === undefined ? {} : { max_length: maxLength }),
  });
}

function readAttribute(attribute: DerElement): { type: string; text: string } {
  const fields = readChildren(expectTag(attribute, DerTag.SEQUENCE, 'attribute'));
  if (fields.length !== 2) throw new PkiError('der_invalid', 'malformed subject attribute');
  const type = readOid(fields[0]);
  const bound = SUBJECT_ATTRIBUTES[type] ?? { name: type, maxLength: OTHER_ATTRIBUTE_MAX_LENGTH };
  const text = decodeDirectoryString(fields[1]);
  if (text === undefined) throw subjectInvalid(bound.name, 'is not a string');
  if (!isCleanText(text, bound.maxLength)) {
    throw subjectInvalid(
      bound.name,
      `must be 1-${bound.maxLength} characters without control characters`,
      bound.maxLength,
    );
  }
  return { type, text };
}

/**
 * Checks every attribute of a CSR subject (string type, length bound, no control or
 * invisible characters; at most 32 attributes) and returns the most specific (last)
 * commonName, if any. Throws PkiError `subject_invalid` naming the attribute.
 */
export function readSubject(name: DerElement): { commonName?: string } {
  let commonName: string | undefined;
  let count = 0;
  for (const rdn of readChildren(expectTag(name, DerTag.SEQUENCE, 'Name'))) {
    for (const attribute of readChildren(expectTag(rdn, DerTag.SET, 'RDN'))) {
      if (++count > MAX_SUBJECT_ATTRIBUTES) {
        throw new PkiError(
          'subject_invalid',
          `subject has more than ${MAX_SUBJECT_ATTRIBUTES} attributes`,
          { field: 'subject' },
        );
      }
      const { type, text } = readAttribute(attribute);
      if (type === Oids.commonName) commonName = text;
    }
  }
  return commonName === undefined ? {} : { commonName };
}
