import { BinaryNode, FieldTermNode, QueryNode, QueryTermNode, QueryValue } from './query-ast';
import { DEFAULT_QUERY_FIELD_CATALOG, QueryFieldCatalog } from './query-field-catalog';
import { containsPattern, globPattern } from './like-pattern';
import { parseQuery } from './query-parser';

/** A parameterized WHERE fragment. Values only ever appear in `params`. */
export interface CompiledQuery {
  sql: string;
  params: unknown[];
}

export interface CompileQueryOptions {
  catalog?: QueryFieldCatalog;
  /** Number of parameters already used by the surrounding statement; first placeholder is `$(offset+1)`. */
  paramOffset?: number;
}

const LIKE = "ILIKE {p} ESCAPE '\\'";

/** The leftmost term and the binary nodes above it (outermost first). */
function isBinary(node: QueryNode): node is BinaryNode {
  return node.type === 'and' || node.type === 'or';
}

function spine(root: QueryNode): { leaf: QueryTermNode; chain: BinaryNode[] } {
  const chain: BinaryNode[] = [];
  let current: QueryNode = root;
  for (;;) {
    if (!isBinary(current)) return { leaf: current, chain };
    chain.push(current);
    current = current.left;
  }
}

class QueryCompiler {
  readonly params: unknown[] = [];

  constructor(
    private readonly catalog: QueryFieldCatalog,
    private readonly offset: number,
  ) {}

  /** Walks the left spine iteratively (long queries never recurse deeply). */
  node(root: QueryNode): string {
    const { leaf, chain } = spine(root);
    let sql = this.term(leaf);
    for (let k = chain.length - 1; k >= 0; k -= 1) {
      const { type, right } = chain[k];
      sql = `(${sql} ${type === 'and' ? 'AND' : 'OR'} ${this.term(right)})`;
    }
    return sql;
  }

  private param(value: unknown): string {
    this.params.push(value);
    return `$${this.offset + this.params.length}`;
  }

  private like(column: string, pattern: string): string {
    return `${column} ${LIKE.replace('{p}', this.param(pattern))}`;
  }

  private negate(sql: string, negated: boolean): string {
    return negated ? `(${sql}) IS NOT TRUE` : sql;
  }

  private term(term: QueryTermNode): string {
    switch (term.type) {
      case 'text': {
        const search = this.catalog.fullText;
        const value = search.value === 'pattern' ? containsPattern(term.text) : term.text;
        const sql = term.negated ? (search.negatedSql ?? search.sql) : search.sql;
        return this.negate(sql(this.param(value), term.text), term.negated);
      }
      case 'comparison': {
        const column = this.catalog.fields[term.field].sql;
        return this.negate(
          `${column} ${term.operator} ${this.param(term.value)}::numeric`,
          term.negated,
        );
      }
      case 'field':
        return this.negate(this.field(term), term.negated);
    }
  }

  private field(term: FieldTermNode): string {
    const definition = this.catalog.fields[term.field];
    const column = definition.sql;
    switch (definition.type) {
      case 'enum':
      case 'boolean':
      case 'number': {
        const cast = definition.type === 'number' ? '::numeric' : '';
        const placeholders = term.values.map((v) => `${this.param(v.value)}${cast}`);
        return placeholders.length === 1
          ? `${column} = ${placeholders[0]}`
          : `${column} IN (${placeholders.join(', ')})`;
      }
      case 'text':
        return this.any(term.values.map((v) => this.like(column, this.pattern(v))));
      case 'text_array': {
        const exact = term.values.filter((v) => !v.glob);
        const parts: string[] = [];
        if (exact.length > 0) {
          const list = exact.map((v) => this.param(v.value)).join(', ');
          parts.push(`${column} && ARRAY[${list}]::text[]`);
        }
        for (const v of term.values.filter((x) => x.glob)) {
          const match = this.like('q_elem.v', globPattern(v.raw));
          parts.push(`EXISTS (SELECT 1 FROM unnest(${column}) AS q_elem(v) WHERE ${match})`);
        }
        return this.any(parts);
      }
    }
  }

  private pattern(value: QueryValue): string {
    return value.glob ? globPattern(String(value.value)) : containsPattern(String(value.value));
  }

  private any(parts: string[]): string {
    return parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
  }
}

/**
 * Compiles a query (string or AST) into a parameterized WHERE fragment; an empty query
 * compiles to `TRUE`. Field names map to catalog SQL; every user value is a `$n` parameter.
 */
export function compileQuery(
  query: string | QueryNode | undefined,
  options: CompileQueryOptions = {},
): CompiledQuery {
  const catalog = options.catalog ?? DEFAULT_QUERY_FIELD_CATALOG;
  const ast = typeof query === 'string' ? parseQuery(query, catalog) : query;
  if (ast === undefined) return { sql: 'TRUE', params: [] };
  const compiler = new QueryCompiler(catalog, options.paramOffset ?? 0);
  const sql = compiler.node(ast);
  return { sql, params: compiler.params };
}
