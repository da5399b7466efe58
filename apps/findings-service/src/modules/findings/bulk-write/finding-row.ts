import { randomFillSync } from 'node:crypto';
import {
  FindingLocation,
  IdentityKind,
  identityKind,
  maxSeverity,
  NormalizedFinding,
  ResightedFinding,
} from '@platform/report-parsing';

/**
 * Columns of the per-connection staging table (findings-bulk-write.repository.ts), in the order
 * of the `COPY ... FROM STDIN` text that `stagedBatch` builds. A finding's `sources` entry,
 * when it has to be stored, is built in SQL from these columns (scanner, scanner_version,
 * rule_id, cve, score, description), see finding-sources.ts.
 */
export const STAGE_COLUMNS: readonly (readonly [name: string, type: string])[] = [
  ['id', 'uuid'],
  ['identity_hash', 'character(64)'],
  ['identity_kind', 'text'],
  ['rule_id', 'text'],
  ['rule_name', 'text'],
  ['rule_title', 'text'],
  ['title', 'text'],
  ['description', 'text'],
  ['severity', 'text'],
  ['baseline_state', 'text'],
  ['kind', 'text'],
  ['suppressed', 'boolean'],
  ['host', 'text'],
  ['ip', 'text'],
  ['port', 'integer'],
  ['protocol', 'text'],
  ['service', 'text'],
  ['url', 'text'],
  ['file_path', 'text'],
  ['start_line', 'integer'],
  ['end_line', 'integer'],
  ['snippet', 'text'],
  ['logical_location', 'text'],
  ['cve', 'text'],
  ['cwe', 'text[]'],
  ['report_tags', 'text[]'],
  ['component', 'text'],
  ['component_version', 'text'],
  ['score', 'double precision'],
  ['scanner', 'text'],
  ['scanner_version', 'text'],
  ['revision', 'text'],
  ['fingerprints', 'jsonb'],
  ['properties', 'jsonb'],
  ['related_locations', 'jsonb'],
  ['code_flows', 'jsonb'],
  ['content_digest', 'uuid'],
];

/** One batch in PostgreSQL COPY text format, one line per distinct identity. */
export interface StagedBatch {
  /** COPY text, UTF-8 (tab-separated, `\N` = NULL, newline-terminated lines). */
  data: Buffer;
  /** Distinct identities (rows) in `text`. */
  rows: number;
  /** What the rows hold, for the suppression rules to skip those no row can meet. */
  facts?: StagedFacts;
}

/** Staged columns whose presence StagedFacts records (text: not NULL; arrays: not empty). */
export const FACT_COLUMNS = [
  'file_path',
  'host',
  'component',
  'cve',
  'cwe',
  'report_tags',
] as const;
export type FactColumn = (typeof FACT_COLUMNS)[number];

/**
 * What a batch's rows hold, computed while they are encoded: its distinct scanners and the
 * FACT_COLUMNS at least one row has a value in. A suppression rule that needs a value no row
 * has cannot match the batch (docs/findings-service/suppression.md, "Cost").
 */
export interface StagedFacts {
  scanners: string[];
  present: FactColumn[];
}

const NULL = '\\N';
/** What PostgreSQL text cannot hold (NUL) is stored as U+FFFD, the replacement character. */
export const REPLACEMENT = '\uFFFD';
const COPY_SPECIAL = /[\\\n\r\t\0]/;
const COPY_SPECIAL_ALL = /[\\\n\r\t\0]/g;
const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\0': REPLACEMENT,
};

/**
 * A string as one COPY text field (backslash, tab, newline and CR escaped; NUL replaced by
 * U+FFFD). Unpaired UTF-16 surrogates become U+FFFD when the line is encoded as UTF-8.
 */
export function copyText(value: string): string {
  return COPY_SPECIAL.test(value)
    ? value.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c] ?? c)
    : value;
}

/** A string PostgreSQL accepts as text or as a bound parameter (NUL replaced by U+FFFD). */
export function pgText(value: string): string {
  return value.includes('\0') ? value.replaceAll('\0', REPLACEMENT) : value;
}

function opt(value: string | undefined | null): string {
  return value === undefined || value === null ? NULL : copyText(value);
}

function num(value: number | undefined | null): string {
  return value === undefined || value === null || !Number.isFinite(value) ? NULL : String(value);
}

const ARRAY_ELEMENT_SPECIAL = /["\\\0]/g;
const ARRAY_ELEMENT_TEST = /["\\\0]/;

/** A `text[]` literal (`{"a","b"}`, every element quoted) as one COPY text field. */
export function copyTextArray(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < values.length; i += 1) {
    if (i > 0) out += ',';
    const value = values[i];
    out += ARRAY_ELEMENT_TEST.test(value)
      ? `"${value.replace(ARRAY_ELEMENT_SPECIAL, (c) => (c === '\0' ? REPLACEMENT : `\\${c}`))}"`
      : `"${value}"`;
  }
  return copyText(`${out}}`);
}

/** Unpaired UTF-16 surrogates: JSON.stringify writes them as `\udXXX` escapes, which jsonb refuses. */
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function jsonbString(value: string): string {
  return value.replace(LONE_SURROGATES, REPLACEMENT).replaceAll('\0', REPLACEMENT);
}

/** A JSON value whose strings and keys jsonb accepts (no NUL, no unpaired surrogates). */
function jsonbValue(value: unknown): unknown {
  if (typeof value === 'string') return jsonbString(value);
  if (Array.isArray(value)) return value.map(jsonbValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) out[jsonbString(key)] = jsonbValue(entry);
    return out;
  }
  return value;
}

/** A `\u0000` or surrogate escape in JSON.stringify output (not an escaped backslash + `u`). */
const JSONB_REFUSED_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u(?:0000|d[89a-f])/;

/**
 * A `jsonb` value as one COPY text field. jsonb refuses `\u0000` and unpaired surrogate
 * escapes: such strings and keys get U+FFFD instead (JSON.stringify writes both as `\u`
 * escapes; values without a `\u` cost one `includes`).
 */
export function copyJson(value: unknown): string {
  if (isEmptyObject(value)) return '{}';
  return copyText(jsonbText(value));
}

/** JSON text that jsonb accepts (see copyJson), for a bound parameter. */
export function jsonbText(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes('\\u') && JSONB_REFUSED_ESCAPE.test(json)
    ? JSON.stringify(jsonbValue(value))
    : json;
}

/** An optional jsonb value (undefined: NULL) as one COPY text field. */
function optJson(value: unknown): string {
  return value === undefined || value === null ? NULL : copyJson(value);
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

let lastMs = 0;
let msHex = '';
let sequence = 0;
/** Random hex digits for the ids' random tails, refilled 16 KiB of entropy at a time. */
let randomHex = '';
let randomAt = 0;
const RANDOM_POOL = Buffer.alloc(16 * 1024);
const VARIANT = '89ab';

/** 16 random hex digits (64 bits, of which a UUID keeps 62). */
function randomTail(): string {
  if (randomAt >= randomHex.length) {
    randomHex = randomFillSync(RANDOM_POOL).toString('hex');
    randomAt = 0;
  }
  const tail = randomHex.slice(randomAt, randomAt + 16);
  randomAt += 16;
  return tail;
}

/**
 * A time-ordered UUID (version 7: 48-bit Unix milliseconds, a 12-bit sequence within the
 * millisecond, 62 random bits) for a new finding. Every findings index ends with `id`:
 * ordered ids append to the right edge of those indexes instead of splitting random pages.
 */
export function uuidV7(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
    msHex = '';
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
    msHex = '';
  }
  if (!msHex) {
    const ms = lastMs.toString(16).padStart(12, '0');
    msHex = `${ms.slice(0, 8)}-${ms.slice(8)}-7`;
  }
  const seq = sequence.toString(16).padStart(3, '0');
  const tail = randomTail();
  // Variant bits 10xx in the first digit of the fourth group.
  const variant = VARIANT[parseInt(tail[0], 16) & 3];
  return `${msHex}${seq}-${variant}${tail.slice(1, 4)}-${tail.slice(4)}`;
}

const WEB_ADDRESS = /^\s*https?:\/\//i;

/** identityKind without recomputing the identity material in the common (file) case. */
function kindOf(f: NormalizedFinding): IdentityKind {
  return f.location.kind === 'file' && !WEB_ADDRESS.test(f.location.path)
    ? 'code'
    : identityKind(f);
}

/** One finding as a COPY text line (columns of STAGE_COLUMNS, newline-terminated). */
export function copyLine(f: NormalizedFinding): string {
  const loc = f.location;
  const file = loc.kind === 'file' ? loc : undefined;
  const net = loc.kind === 'network' ? loc : undefined;
  return (
    `${uuidV7()}\t${copyText(f.identity)}\t${kindOf(f)}\t${copyText(f.rule_id)}\t${opt(f.rule_name)}\t` +
    `${opt(f.rule_title)}\t` +
    `${copyText(f.title)}\t${copyText(f.description)}\t${copyText(f.severity)}\t` +
    `${opt(f.baseline_state)}\t${copyText(f.kind)}\t${f.suppressed ? 't' : 'f'}\t` +
    `${opt(net?.host)}\t${opt(net?.ip)}\t${num(net?.port)}\t${opt(net?.protocol)}\t` +
    `${opt(net?.service)}\t${loc.kind === 'web' ? copyText(loc.url) : NULL}\t` +
    `${opt(file?.path)}\t${num(file?.start_line)}\t${num(file?.end_line)}\t` +
    `${opt(file?.snippet)}\t${opt(f.logical_location)}\t${opt(f.cve)}\t` +
    `${copyTextArray(f.cwe)}\t${copyTextArray(f.tags)}\t${opt(f.component)}\t` +
    `${opt(f.component_version)}\t${num(f.score)}\t${copyText(f.scanner)}\t` +
    `${opt(f.scanner_version)}\t${opt(f.revision)}\t${copyJson(f.fingerprints)}\t` +
    `${copyJson(f.properties)}\t${optJson(f.related_locations)}\t${optJson(f.code_flows)}\t` +
    `${f.content_digest ?? NULL}\n`
  );
}

/**
 * A batch as COPY text with one line per identity: a single `INSERT ... ON CONFLICT DO UPDATE`
 * cannot touch the same row twice, so results sharing an identity are merged first.
 */
export function stagedBatch(findings: readonly NormalizedFinding[]): StagedBatch {
  const byIdentity = new Map<string, NormalizedFinding>();
  for (const f of findings) {
    const earlier = byIdentity.get(f.identity);
    byIdentity.set(f.identity, earlier ? mergeFindings(earlier, f) : f);
  }
  let text = '';
  const scanners = new Set<string>();
  const present = new Set<FactColumn>();
  for (const f of byIdentity.values()) {
    text += copyLine(f);
    scanners.add(f.scanner);
    noteFacts(f, present);
  }
  return {
    data: Buffer.from(text, 'utf8'),
    rows: byIdentity.size,
    facts: { scanners: [...scanners], present: [...present] },
  };
}

/** What `opt` writes as NULL. */
function missing(value: string | undefined | null): boolean {
  return value === undefined || value === null;
}

function noteFacts(f: NormalizedFinding, present: Set<FactColumn>): void {
  const loc = f.location;
  if (loc.kind === 'file' && !missing(loc.path)) present.add('file_path');
  if (loc.kind === 'network' && !missing(loc.host)) present.add('host');
  if (!missing(f.component)) present.add('component');
  if (!missing(f.cve)) present.add('cve');
  if (f.cwe.length > 0) present.add('cwe');
  if (f.tags.length > 0) present.add('report_tags');
}

/**
 * Re-sightings as COPY text for the touch staging table (`finding_id`, `content_digest`), one
 * line per finding.
 */
export function stagedResightings(resighted: readonly ResightedFinding[]): StagedBatch {
  const seen = new Set<string>();
  let text = '';
  for (const r of resighted) {
    if (seen.has(r.finding_id)) continue;
    seen.add(r.finding_id);
    text += `${r.finding_id}\t${r.content_digest}\n`;
  }
  return { data: Buffer.from(text, 'utf8'), rows: seen.size };
}

/**
 * Two results of one report with the same identity (the same CVE on one port from two rules,
 * say) describe one finding: the later result's values win, but what only the earlier one
 * knew (service, component, CVE, ...) is kept, list fields are united and the higher
 * severity stands. The merge is no single result's content: it has no content digest (so
 * neither result is ever taken for an unchanged re-sighting of it).
 */
export function mergeFindings(
  earlier: NormalizedFinding,
  later: NormalizedFinding,
): NormalizedFinding {
  return {
    ...earlier,
    ...definedOnly(later),
    content_digest: undefined,
    severity: maxSeverity(earlier.severity, later.severity),
    severity_source:
      maxSeverity(earlier.severity, later.severity) === later.severity
        ? later.severity_source
        : earlier.severity_source,
    location: { ...earlier.location, ...definedOnly(later.location) } as FindingLocation,
    cwe: union(earlier.cwe, later.cwe),
    tags: union(earlier.tags, later.tags),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] !== undefined && value[key] !== null) out[key] = value[key];
  }
  return out;
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return b.every((x) => a.includes(x)) ? [...a] : [...new Set([...a, ...b])];
}
