import { FindingsError } from '../../app/errors/findings-error';

export type ScopeErrorCode =
  | 'scope_entry_invalid'
  | 'scope_entry_too_wide'
  | 'scope_entry_host_bits'
  | 'scope_entry_name_too_long'
  | 'scope_entry_punycode_invalid'
  | 'scope_entry_wildcard_invalid'
  | 'scope_batch_too_large'
  | 'scope_cursor_invalid'
  | 'scope_filter_too_many'
  | 'scope_filter_body_invalid'
  | 'scope_asset_invalid'
  | 'scope_ipam_unsupported'
  | 'scope_ipam_url_refused'
  | 'scope_entry_not_found'
  | 'scope_proposal_not_found'
  | 'scope_entry_duplicate'
  | 'scope_entry_overlaps'
  | 'scope_entries_limit'
  | 'scope_proposals_limit'
  | 'scope_proposal_decided'
  | 'scope_ipam_token_refused'
  | 'scope_ipam_too_large'
  | 'scope_ipam_unavailable'
  | 'scope_ipam_answer_invalid';

/** Errors of the scan perimeter (docs/findings-service/scope.md#errors). */
export class ScopeError extends FindingsError<ScopeErrorCode> {
  constructor(code: ScopeErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
