import { escapeControlCharacters } from './control-characters';
import { databaseErrorFacts, type DatabaseErrorFacts } from './database-error';
import { scrubSecretText } from './secret-fields';

/**
 * An error as it may appear in a log line. A database error keeps the statement kind, the
 * SQLSTATE and the names of the table, constraint and column — never the bound parameters,
 * the statement text, the driver's message or its detail (both quote row values).
 */
export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
  sqlstate?: string;
  query_kind?: string;
  table?: string;
  constraint?: string;
  column?: string;
  cause?: LoggedError;
  errors?: LoggedError[];
}

const MAX_NESTING = 3;
const MAX_AGGREGATED = 10;
const produced = new WeakSet<object>();

export function isLoggedError(value: unknown): value is LoggedError {
  return typeof value === 'object' && value !== null && produced.has(value);
}

function databaseMessage(facts: DatabaseErrorFacts, driverMessage: string): string {
  const what = `${facts.queryKind ?? 'query'} failed`;
  if (!facts.sqlstate) return `${what}: ${safeText(driverMessage)}`;
  const names = (['table', 'constraint', 'column'] as const)
    .filter((key) => facts[key] !== undefined)
    .map((key) => `${key} ${facts[key]}`);
  return [`${what}: SQLSTATE ${facts.sqlstate}`, ...names].join(', ');
}

function framesOf(stack: string): string {
  return stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
}

/** Text quoted from an error (a plugin's, a client's): secret-shaped text scrubbed, one line. */
function safeText(text: string): string {
  return escapeControlCharacters(scrubSecretText(text));
}

/**
 * The stack as a log shows it: the header rebuilt from the safe message, then the frames. The
 * frames are looked for after the raw message only: a message of several lines (a plugin's
 * error text) cannot add a frame-shaped or log-shaped line of its own, in any sink.
 */
function safeStack(error: Error, header: string): string {
  const stack = error.stack ?? '';
  const at = error.message ? stack.indexOf(error.message) : -1;
  const frames = framesOf(at >= 0 ? stack.slice(at + error.message.length) : stack)
    .split('\n')
    .filter((line) => line !== '')
    .map(safeText);
  return [header, ...frames].join('\n');
}

function codeOf(error: Error): string | number | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number' ? code : undefined;
}

function describe(error: unknown, depth: number): LoggedError {
  if (!(error instanceof Error)) {
    const text = typeof error === 'string' ? error : String(error);
    return { type: typeof error, message: safeText(text) };
  }
  const type = error.name || error.constructor.name;
  const facts = databaseErrorFacts(error);
  const logged: LoggedError = { type, message: safeText(error.message) };
  if (facts) {
    logged.message = databaseMessage(facts, error.message);
    if (error.stack) logged.stack = safeStack(error, `${type}: ${logged.message}`);
    if (facts.sqlstate) logged.sqlstate = facts.sqlstate;
    else if (codeOf(error) !== undefined) logged.code = codeOf(error);
    if (facts.queryKind) logged.query_kind = facts.queryKind;
    if (facts.table) logged.table = facts.table;
    if (facts.constraint) logged.constraint = facts.constraint;
    if (facts.column) logged.column = facts.column;
  } else {
    if (error.stack) logged.stack = safeStack(error, `${type}: ${logged.message}`);
    if (codeOf(error) !== undefined) logged.code = codeOf(error);
  }
  if (depth < MAX_NESTING) {
    if (error.cause !== undefined) logged.cause = describe(error.cause, depth + 1);
    if (error instanceof AggregateError && Array.isArray(error.errors)) {
      logged.errors = (error.errors as unknown[])
        .slice(0, MAX_AGGREGATED)
        .map((inner) => describe(inner, depth + 1));
    }
  }
  produced.add(logged);
  return logged;
}

/** The log form of anything thrown; see LoggedError. */
export function loggableError(error: unknown): LoggedError {
  return isLoggedError(error) ? error : describe(error, 0);
}
