import { oid } from '../der/der-oid';
import { isPrintableString, printableString, utf8String } from '../der/der-string';
import { sequence, setOf } from '../der/der-tlv';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';
import { isSafeText } from './safe-text';

/** ub-common-name (RFC 5280 appendix A). */
export const MAX_COMMON_NAME_LENGTH = 64;

/** Refuses control characters, bidi overrides, surrounding blanks, empty and > 64 characters. */
export function validateCommonName(commonName: string): string {
  if (!isSafeText(commonName, MAX_COMMON_NAME_LENGTH)) {
    throw new PkiError(
      'subject_invalid',
      `common name must be 1-${MAX_COMMON_NAME_LENGTH} printable characters without control characters`,
    );
  }
  return commonName;
}

export interface NameAttribute {
  readonly oid: string;
  readonly value: string;
}

/** A Name with one attribute per RDN, in the given order; values as UTF8String. */
export function encodeName(attributes: readonly NameAttribute[]): Buffer {
  return sequence(
    ...attributes.map((attribute) =>
      setOf(sequence(oid(attribute.oid), utf8String(attribute.value))),
    ),
  );
}

/** Subject `CN=<commonName>` of an end-entity certificate. */
export function commonNameSubject(commonName: string): Buffer {
  return encodeName([{ oid: Oids.commonName, value: validateCommonName(commonName) }]);
}

/** PrintableString variant for CA names when the text allows it (widest compatibility). */
export function encodeCaName(commonName: string, organization?: string): Buffer {
  const attributes: NameAttribute[] = organization
    ? [{ oid: Oids.organizationName, value: validateCommonName(organization) }]
    : [];
  attributes.push({ oid: Oids.commonName, value: validateCommonName(commonName) });
  return sequence(
    ...attributes.map((a) =>
      setOf(
        sequence(
          oid(a.oid),
          isPrintableString(a.value) ? printableString(a.value) : utf8String(a.value),
        ),
      ),
    ),
  );
}
