import { FindingsError } from '../../app/errors/findings-error';

export type EnrichmentErrorCode =
  | 'enricher_not_found'
  | 'enrichment_failed'
  // the enricher's answer was refused (nothing stored changed)
  | 'invalid_answer'
  | 'answer_too_large'
  // the findings API's codes, answered alike (this module is used by the findings module)
  | 'finding_not_found'
  | 'access_denied';

/** Errors of enrichment (manual route and jobs). */
export class EnrichmentError extends FindingsError<EnrichmentErrorCode> {
  constructor(code: EnrichmentErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
