import { FindingsError } from '../../app/errors/findings-error';

export type FindingsErrorCode =
  | 'finding_not_found'
  | 'finding_cursor_invalid'
  | 'risk_accepted_until_required'
  | 'risk_accepted_until_invalid'
  | 'waiting_fields_required'
  | 'waiting_until_invalid'
  | 'triage_field_status_mismatch'
  | 'assignee_invalid'
  | 'finding_tags_limit'
  | 'status_not_settable'
  | 'justification_required'
  | 'comment_not_found'
  | 'bulk_selection_required'
  | 'bulk_selection_too_large'
  | 'bulk_waiting_refused'
  | 'status_transition_refused'
  | 'access_denied';

/** Errors of the findings API (list, triage, tags). Query syntax errors are QuerySyntaxError. */
export class FindingsApiError extends FindingsError<FindingsErrorCode> {
  constructor(code: FindingsErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
