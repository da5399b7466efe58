import type { ReportFailureCode, ReportFailureDetails } from '../reports/report-status';
import { StoredReportReadError } from './parser-thread/stored-report-read-error';
import { ReportParseError } from '@platform/report-parsing';

/** Codes of failures that may go away: the job is retried, the report stays pending. */
export const TRANSIENT_FAILURE_CODES = ['database_unavailable', 'storage_unavailable'] as const;
export type TransientFailureCode = (typeof TRANSIENT_FAILURE_CODES)[number];

/**
 * What an ingestion error means for the job: retry (transient) or fail the report at once with a
 * stable code. `log` is the internal detail for the server log only: never stored or returned.
 */
export type IngestionFailure =
  | { retry: true; code: TransientFailureCode; log: string }
  | { retry: false; code: ReportFailureCode; details?: ReportFailureDetails; log: string };

/**
 * SQLSTATEs (or their classes) that another attempt may not meet: connection exceptions (08),
 * serialization failure, deadlock, lock timeout, statement timeout / cancel, shutdown and
 * restart (57P01-03), insufficient resources (53), I/O error.
 */
const TRANSIENT_SQLSTATE = /^(?:08...|40001|40P01|55P03|57014|57P0[123]|53...|58030)$/;
/** Socket errors of the database connection. */
const TRANSIENT_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);
/** node-postgres / pool errors that carry no code. */
const TRANSIENT_DRIVER_MESSAGE =
  /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|not queryable|Connection ended/i;

function codeOf(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code;
  if (typeof own === 'string') return own;
  const driver = (error as { driverError?: { code?: unknown } } | null)?.driverError?.code;
  return typeof driver === 'string' ? driver : undefined;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  const code = codeOf(error);
  // A driver message may quote a row value; the statement and its parameters are never logged.
  return `${error.name}${code ? ` ${code}` : ''}: ${error.message.slice(0, 300)}`;
}

/**
 * Deterministic failures (a malformed or hostile report, a bug) fail the report after one
 * attempt; only a database or storage that may come back is worth retrying.
 */
export function classifyIngestionFailure(error: unknown): IngestionFailure {
  const log = describe(error);
  if (error instanceof ReportParseError) {
    const details = error.details as ReportFailureDetails | undefined;
    return { retry: false, code: error.code, ...(details ? { details } : {}), log };
  }
  if (error instanceof StoredReportReadError) {
    return error.errno === 'ENOENT'
      ? { retry: false, code: 'report_file_missing', log }
      : { retry: true, code: 'storage_unavailable', log };
  }
  const code = codeOf(error);
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return { retry: false, code: 'report_too_complex', log };
  const transient =
    (code !== undefined && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_ERRNO.has(code))) ||
    (error instanceof Error && TRANSIENT_DRIVER_MESSAGE.test(error.message));
  if (transient) return { retry: true, code: 'database_unavailable', log };
  return { retry: false, code: 'internal_error', log };
}

export function isTransientFailureCode(value: string): value is TransientFailureCode {
  return (TRANSIENT_FAILURE_CODES as readonly string[]).includes(value);
}
