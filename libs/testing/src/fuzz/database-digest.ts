import { quoteIdentifier as q } from '../admin-database';

export type SqlQuery = (sql: string) => Promise<Record<string, unknown>[]>;

/** Per table: row count and md5 of the rows (columns left out as configured). */
export type DigestSnapshot = Map<string, string>;

export interface DigestExclusions {
  /** Tables left out entirely, each with the reason. */
  tables?: Record<string, string>;
  /** Columns left out per table (`table.column`), each with the reason. */
  columns?: Record<string, string>;
}

/**
 * Digest of the stored state of a database: one statement over every user table of the
 * `public` schema (migration bookkeeping excluded) so a refused request can be checked for
 * writes.
 */
export class DatabaseDigest {
  private constructor(
    private readonly query: SqlQuery,
    private readonly statement: string,
    readonly tables: string[],
  ) {}

  static async create(query: SqlQuery, exclusions: DigestExclusions = {}): Promise<DatabaseDigest> {
    const rows = await query(
      `SELECT c.relname AS name,
              array_agg(a.attname::text ORDER BY a.attnum) AS columns
         FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
        GROUP BY c.relname
        ORDER BY c.relname`,
    );
    const skipped = new Set(Object.keys(exclusions.tables ?? {}));
    const skippedColumns = Object.keys(exclusions.columns ?? {});
    const parts: string[] = [];
    const tables: string[] = [];
    for (const row of rows) {
      const name = String(row.name);
      if (skipped.has(name) || /^(migrations|typeorm_metadata)$/.test(name)) continue;
      const columns = (row.columns as string[]).filter(
        (c) => !skippedColumns.includes(`${name}.${c}`),
      );
      if (columns.length === 0) continue;
      tables.push(name);
      const list = columns.map((c) => `t.${q(c)}`).join(', ');
      parts.push(
        `SELECT ${literal(name)} AS name, count(*)::text || ':' ||
                coalesce(md5(string_agg(r.v, E'\\n' ORDER BY r.v)), '') AS digest
           FROM (SELECT ROW(${list})::text AS v FROM ${q(name)} t) r`,
      );
    }
    const statement =
      parts.length > 0
        ? parts.join('\nUNION ALL\n')
        : `SELECT '' AS name, '' AS digest WHERE false`;
    return new DatabaseDigest(query, statement, tables);
  }

  async snapshot(): Promise<DigestSnapshot> {
    const rows = await this.query(this.statement);
    return new Map(rows.map((r) => [String(r.name), String(r.digest)]));
  }

  /** Tables whose digest differs, as `table (rows before -> after)`. */
  static changed(before: DigestSnapshot, after: DigestSnapshot): string[] {
    const out: string[] = [];
    for (const [table, digest] of after) {
      const old = before.get(table);
      if (old !== digest) {
        out.push(`${table} (rows ${old?.split(':')[0] ?? '?'} -> ${digest.split(':')[0]})`);
      }
    }
    return out;
  }
}

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
