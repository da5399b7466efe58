import type { FactColumn, StagedFacts } from '../findings/bulk-write/finding-row';
import {
  containsPattern,
  globPattern,
  type FieldTermNode,
  type QueryNode,
} from '../findings/query';

/** The staged column a rule field reads, for the fields whose presence a batch records. */
const FACT_OF_FIELD: Readonly<Record<string, FactColumn>> = {
  file_path: 'file_path',
  host: 'host',
  component: 'component',
  cve: 'cve',
  cwe: 'cwe',
  tags: 'report_tags',
};

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/**
 * A LIKE pattern (ESCAPE '\') as an anchored RegExp over lower-cased ASCII text: what
 * `lower(column) LIKE lower(pattern)` computes for ASCII on both sides.
 */
export function likeRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i] as string;
    if (ch === '\\' && i + 1 < pattern.length) {
      i += 1;
      out += escapeRegExp(pattern[i] as string);
    } else if (ch === '%') out += '[\\s\\S]*';
    else if (ch === '_') out += '[\\s\\S]';
    else out += escapeRegExp(ch);
  }
  return new RegExp(`^${out}$`);
}

function escapeRegExp(ch: string): string {
  return /[.*+?^${}()|[\]\\/-]/.test(ch) ? `\\${ch}` : ch;
}

/**
 * Whether a positive scanner term can hold for one of the scanners. Decided only when the
 * scanners and the values are ASCII (JavaScript's and PostgreSQL's lower-casing agree there);
 * otherwise it may.
 */
function scannerMayMatch(term: FieldTermNode, scanners: readonly string[]): boolean {
  if (!scanners.every((s) => ASCII.test(s))) return true;
  const lowered = scanners.map((s) => s.toLowerCase());
  return term.values.some((v) => {
    const text = String(v.value);
    if (!ASCII.test(text)) return true;
    const pattern = likeRegExp((v.glob ? globPattern(text) : containsPattern(text)).toLowerCase());
    return lowered.some((s) => pattern.test(s));
  });
}

function termMayMatch(term: FieldTermNode, facts: StagedFacts): boolean {
  // A negated term holds where the value is missing: it never rules a batch out.
  if (term.negated) return true;
  const column = FACT_OF_FIELD[term.field];
  // A value no row has: the comparison is NULL or false for every row.
  if (column !== undefined) return facts.present.includes(column);
  if (term.field === 'scanner') return scannerMayMatch(term, facts.scanners);
  return true;
}

/**
 * Whether a rule can match a row of a batch with these facts: false only when it provably
 * cannot (a needed value no row has, a scanner no row was found by), so that leaving the rule
 * out of the batch's statement changes nothing. `and`/`or` follow SQL's three-valued logic: a
 * side that is never TRUE makes an AND never TRUE; an OR needs both.
 */
export function ruleMayMatch(node: QueryNode, facts: StagedFacts): boolean {
  switch (node.type) {
    case 'and':
      return ruleMayMatch(node.left, facts) && ruleMayMatch(node.right, facts);
    case 'or':
      return ruleMayMatch(node.left, facts) || ruleMayMatch(node.right, facts);
    case 'field':
      return termMayMatch(node, facts);
    case 'comparison':
    case 'text':
      return true;
  }
}
