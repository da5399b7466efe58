import { PkiError } from '../pki.errors';
import type { IssueManyOutcome } from './certificate-issuer';

/**
 * The row of `issueMany` for a request whose issue threw: a PkiError becomes an `error` row and
 * the batch carries on; anything else is a defect and propagates.
 */
export function failedRow(requestId: string, error: unknown): IssueManyOutcome {
  if (!(error instanceof PkiError)) throw error;
  return { requestId, status: 'error', code: error.code, message: error.message };
}
