/** What may be logged about a failed SQL statement: never its parameters, values or detail. */
export interface DatabaseErrorFacts {
  /** First keyword of the statement (`INSERT`, `SELECT`, `WITH`, ...), when known. */
  queryKind?: string;
  /** PostgreSQL error code, e.g. `23505`. */
  sqlstate?: string;
  table?: string;
  constraint?: string;
  column?: string;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_$.]{0,127}$/;

function stringField(value: object, key: string, pattern: RegExp): string | undefined {
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' && pattern.test(field) ? field : undefined;
}

/** First SQL keyword of a statement, skipping leading comments and parentheses. */
export function queryKindOf(query: string): string | undefined {
  const match = /^(?:\s|\(|--[^\n]*\n|\/\*[\s\S]*?\*\/)*([A-Za-z]{2,16})\b/.exec(query);
  return match?.[1]?.toUpperCase();
}

/**
 * Facts of a TypeORM QueryFailedError (which carries `query`, `parameters` and `driverError`)
 * or of a node-postgres DatabaseError (which carries `severity` and a SQLSTATE `code`); null
 * for any other value.
 */
export function databaseErrorFacts(error: unknown): DatabaseErrorFacts | null {
  if (typeof error !== 'object' || error === null) return null;
  const fields = error as Record<string, unknown>;
  const fromOrm = 'driverError' in fields && typeof fields['query'] === 'string';
  const fromDriver = typeof fields['severity'] === 'string' && stringField(error, 'code', SQLSTATE);
  if (!fromOrm && !fromDriver) return null;
  return {
    queryKind: typeof fields['query'] === 'string' ? queryKindOf(fields['query']) : undefined,
    sqlstate: stringField(error, 'code', SQLSTATE),
    table: stringField(error, 'table', NAME),
    constraint: stringField(error, 'constraint', NAME),
    column: stringField(error, 'column', NAME),
  };
}
