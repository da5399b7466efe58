import {
  compileQuery,
  FieldTermNode,
  normalizeCweValue,
  parseQuery,
  QUERY_SEVERITIES,
  QueryFieldCatalog,
  QueryNode,
  QuerySyntaxError,
  QueryTermNode,
} from '../findings/query';
import { SuppressionError } from './suppression.errors';

/** A rule's text is shorter than a list query (MAX_QUERY_LENGTH 2 000): it is kept and shown. */
export const MAX_RULE_QUERY_LENGTH = 1000;
/** `*` per pattern: more never make a rule more useful, only its LIKE slower. */
export const MAX_RULE_GLOB_STARS = 8;

/** The fields a rule may match on (docs/findings-service/suppression.md, "Match language"). */
export const RULE_FIELDS = [
  'scanner',
  'rule',
  'file_path',
  'host',
  'component',
  'cve',
  'cwe',
  'severity',
  'tags',
] as const;

/**
 * The rule catalog over a row alias: `f` = a stored finding (tags of every origin), `s` = a
 * staged row of ingestion (a new finding only has its report's tags). Same types, values and
 * normalizations as the list's query language, so a rule matches what `q` with the same text
 * matches.
 */
export function ruleCatalog(alias: 'f' | 's'): QueryFieldCatalog {
  const tags = alias === 'f' ? '(f.tags || f.report_tags || f.enrichment_tags)' : 's.report_tags';
  // A staged row's text columns are read lower-cased (`l.lc_<name>`, see LOWERED_STAGE_COLUMNS).
  const text = (column: string): string => (alias === 'f' ? `f.${column}` : `l.lc_${column}`);
  return {
    fields: {
      scanner: { type: 'text', sql: text('scanner') },
      rule: { type: 'text', sql: text('rule_id') },
      file_path: { type: 'text', sql: text('file_path') },
      host: { type: 'text', sql: text('host') },
      component: { type: 'text', sql: text('component') },
      cve: { type: 'text', sql: text('cve'), normalize: (v) => v.toUpperCase() },
      cwe: { type: 'text_array', sql: `${alias}.cwe`, normalize: normalizeCweValue },
      severity: { type: 'enum', sql: `${alias}.severity`, values: QUERY_SEVERITIES },
      tags: { type: 'text_array', sql: tags },
    },
    // Bare terms are refused before compiling (validateRuleQuery); never reached.
    fullText: { value: 'raw', sql: () => 'FALSE' },
  };
}

const STORED = ruleCatalog('f');
const STAGED = ruleCatalog('s');

function invalid(reason: string, problem: string, position = 1): never {
  throw new SuppressionError('suppression_rule_invalid', { reason, problem, position });
}

function terms(root: QueryNode): QueryTermNode[] {
  const out: QueryTermNode[] = [];
  let node: QueryNode = root;
  while (node.type === 'and' || node.type === 'or') {
    out.push(node.right);
    node = node.left;
  }
  out.push(node as QueryTermNode);
  return out.reverse();
}

/** Lists every value of an enum (e.g. all five severities): the term holds for any finding. */
function coversAll(term: FieldTermNode): boolean {
  if (term.field !== 'severity') return false;
  const given = new Set(term.values.map((v) => v.value));
  return QUERY_SEVERITIES.every((s) => given.has(s));
}

/**
 * Parses and checks a rule's text: the query language with the rule fields only, no bare
 * (full-text) terms, at least one field term that narrows (not negated, not every severity),
 * at most MAX_RULE_QUERY_LENGTH characters and MAX_RULE_GLOB_STARS `*` per pattern. Every
 * refusal is `400 suppression_rule_invalid` with `details.reason`, `position` and `problem`.
 */
export function validateRuleQuery(text: string): QueryNode {
  if (text.length > MAX_RULE_QUERY_LENGTH) {
    invalid(
      'too_long',
      `a rule is at most ${MAX_RULE_QUERY_LENGTH} characters`,
      MAX_RULE_QUERY_LENGTH + 1,
    );
  }
  let ast: QueryNode | undefined;
  try {
    ast = parseQuery(text, STORED);
  } catch (error) {
    if (error instanceof QuerySyntaxError) invalid('syntax', error.problem, error.position);
    throw error;
  }
  if (ast === undefined) invalid('matches_everything', 'a rule needs at least one field term');
  const all = terms(ast);
  for (const term of all) {
    if (term.type === 'text') {
      invalid(
        'full_text',
        `bare words are not allowed in a rule; use field:value (fields: ${RULE_FIELDS.join(', ')})`,
        term.position,
      );
    }
    if (term.type !== 'field') continue;
    for (const value of term.values) {
      const stars = value.raw.split('*').length - 1;
      if (value.glob && stars > MAX_RULE_GLOB_STARS) {
        invalid(
          'too_many_wildcards',
          `pattern has ${stars} "*"; at most ${MAX_RULE_GLOB_STARS}`,
          value.position,
        );
      }
    }
  }
  const narrowing = all.some((t) => t.type === 'field' && !t.negated && !coversAll(t));
  if (!narrowing) {
    invalid(
      'matches_everything',
      'a rule needs a field term that is not negated and does not list every value',
    );
  }
  return ast;
}

/** A parameterized boolean expression and its values. */
export interface RulePredicate {
  sql: string;
  params: unknown[];
}

/** The rule as a predicate over a stored finding `f`; its first placeholder is `$(offset+1)`. */
export function storedPredicate(text: string, paramOffset = 0): RulePredicate {
  return compileQuery(validateRuleQuery(text), { catalog: STORED, paramOffset });
}

// eslint-disable-next-line no-control-regex
const ASCII_TEXT = /^[\x00-\x7f]*$/;

/** A–Z to a–z, nothing else: what PostgreSQL's lower() does to ASCII text (see lowerCaseLike). */
function lowerAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
}

/**
 * `l.lc_<column> ILIKE $n` → `l.lc_<column> LIKE $n` with the pattern lower-cased: the column
 * is already lower-cased by PostgreSQL, so this is what ILIKE computes (lower() of both sides),
 * without lower-casing both sides on every comparison. Only an ASCII pattern is lower-cased
 * here (A–Z, as lower() does under the C and the usual UTF-8 locales): JavaScript's case
 * mapping of other letters is not PostgreSQL's (under the C locale lower() keeps `Ä`, and
 * `İ` becomes two characters in JavaScript), so a pattern with non-ASCII text compares the
 * staged column itself with ILIKE, exactly as the stored predicate of a run does
 * (`f.<column> ILIKE $n`). Other comparisons (arrays, enums) are left as compiled.
 */
function lowerCaseLike(compiled: RulePredicate, paramOffset: number): RulePredicate {
  const params = [...compiled.params];
  const sql = compiled.sql.replace(
    /l\.lc_(\w+) ILIKE \$(\d+)/g,
    (_all, column: string, n: string) => {
      const index = Number(n) - paramOffset - 1;
      const pattern = String(params[index]);
      if (!ASCII_TEXT.test(pattern)) return `s.${column} ILIKE $${n}`;
      params[index] = lowerAscii(pattern);
      return `l.lc_${column} LIKE $${n}`;
    },
  );
  return { sql, params };
}

/**
 * The enabled rules of a project as one expression over a staged row `s` of ingestion: the id
 * of the first rule (in the order given) that matches, NULL when none does. Undefined without
 * rules (ingestion then runs its plain statement).
 */
export function stagedRuleCase(
  rules: readonly { id: string; query: string }[],
  paramOffset: number,
): RulePredicate | undefined {
  if (rules.length === 0) return undefined;
  const params: unknown[] = [];
  const whens: string[] = [];
  for (const rule of rules) {
    const compiled = lowerCaseLike(
      compileQuery(validateRuleQuery(rule.query), {
        catalog: STAGED,
        paramOffset: paramOffset + params.length,
      }),
      paramOffset + params.length,
    );
    params.push(...compiled.params, rule.id);
    // CASE takes a NULL condition as false: no `IS TRUE` needed (one step less per rule and row).
    whens.push(`WHEN ${compiled.sql} THEN $${paramOffset + params.length}::uuid`);
  }
  return { sql: `CASE ${whens.join(' ')} END`, params };
}
