import { asArray, asRecord, asString, asStringList, unique } from './json-value';

const CWE_TAG = /^(?:external\/cwe\/)?cwe[-_:/ ]?(\d{1,5})$/i;
const CWE_ID = /^(?:cwe[-_: ]?)?(\d{1,5})$/i;
// At most 19 sequence digits: the id fits `findings.cve` (64 characters).
const CVE = /^CVE-\d{4}-\d{4,19}$/i;
const CVE_INSIDE = /\bCVE-\d{4}-\d{4,19}\b/i;
const GHSA_INSIDE = /\bGHSA(?:-[23456789cfghjmpqrvwx]{4}){3}\b/i;

/** `CWE-79` from a tag such as `external/cwe/cwe-79`, `CWE-79`, `cwe:79`; else undefined. */
export function cweFromTag(tag: string): string | undefined {
  const match = CWE_TAG.exec(tag.trim());
  return match ? `CWE-${Number(match[1])}` : undefined;
}

/** `CWE-79` from an identifier such as `79`, `CWE-79` (properties.cwe, taxa ids). */
export function cweFromId(id: string): string | undefined {
  const match = CWE_ID.exec(id.trim());
  return match ? `CWE-${Number(match[1])}` : undefined;
}

/** CWE ids of a `properties.cwe` value (string, number or list). */
export function cweFromProperty(value: unknown): string[] {
  return asStringList(value)
    .map(cweFromId)
    .filter((c): c is string => c !== undefined);
}

/** CWE ids of tags. */
export function cweFromTags(tags: readonly string[]): string[] {
  return tags.map(cweFromTag).filter((c): c is string => c !== undefined);
}

/**
 * CWE ids of `relationships[]` (rules) or `taxa[]` (results) whose target/reference belongs
 * to a tool component named `CWE`.
 */
export function cweFromRelationships(value: unknown): string[] {
  const out: string[] = [];
  for (const entry of asArray(value)) {
    const record = asRecord(entry);
    const ref = asRecord(record?.target) ?? record;
    const component = asString(asRecord(ref?.toolComponent)?.name);
    const id = asString(ref?.id);
    if (component?.toUpperCase() === 'CWE' && id !== undefined) {
      const cwe = cweFromId(id);
      if (cwe) out.push(cwe);
    }
  }
  return unique(out);
}

/** Upper-cased CVE id when `value` is one (`cve-2021-44228` → `CVE-2021-44228`). */
export function asCve(value: unknown): string | undefined {
  const s = asString(value);
  return s !== undefined && CVE.test(s) ? s.toUpperCase() : undefined;
}

/** First CVE id contained in any of the strings. */
export function cveInside(values: readonly (string | undefined)[]): string | undefined {
  for (const value of values) {
    const match = value === undefined ? null : CVE_INSIDE.exec(value);
    if (match) return match[0].toUpperCase();
  }
  return undefined;
}

/** First GitHub advisory id (`GHSA-xxxx-xxxx-xxxx`, lower-cased) contained in the strings. */
export function ghsaInside(values: readonly (string | undefined)[]): string | undefined {
  for (const value of values) {
    const match = value === undefined ? null : GHSA_INSIDE.exec(value);
    if (match) return `GHSA${match[0].slice(4).toLowerCase()}`;
  }
  return undefined;
}
