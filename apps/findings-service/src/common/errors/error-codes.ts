/**
 * Every machine-readable error code of the findings service with its HTTP status.
 * The message catalog (error-messages.ts) must hold an English and a Russian text for each.
 */
export const ERROR_STATUS = {
  // framework and transport
  bad_request: 400,
  validation_failed: 400,
  body_too_deep: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable_entity: 422,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  // auth
  authentication_required: 401,
  invalid_token: 401,
  invalid_api_key: 401,
  invalid_credentials: 401,
  refresh_token_invalid: 401,
  refresh_token_reused: 401,
  access_denied: 403,
  permission_denied: 403,
  access_undeclared: 403,
  local_auth_disabled: 404,
  // users
  user_exists: 409,
  user_not_found: 404,
  user_is_self: 409,
  user_last_admin: 409,
  user_configured_admin: 409,
  // service accounts
  service_account_not_found: 404,
  service_account_revoked: 409,
  permission_not_found: 404,
  permission_level_invalid: 400,
  permission_scope_invalid: 400,
  permission_expiry_required: 400,
  permission_expiry_in_past: 400,
  // projects, products, members
  project_not_found: 404,
  product_not_found: 404,
  product_exists: 409,
  member_not_found: 404,
  repository_url_invalid: 400,
  // reports, ingestion, jobs
  report_not_found: 404,
  report_file_missing: 400,
  report_extension_refused: 400,
  report_archive_refused: 400,
  report_too_large: 413,
  queue_unavailable: 503,
  job_not_found: 404,
  job_not_retryable: 422,
  job_not_cancellable: 422,
  // findings API (list, triage, tags)
  finding_not_found: 404,
  finding_cursor_invalid: 400,
  query_syntax_error: 400,
  risk_accepted_until_required: 400,
  risk_accepted_until_invalid: 400,
  waiting_fields_required: 400,
  waiting_until_invalid: 400,
  triage_field_status_mismatch: 400,
  assignee_invalid: 400,
  finding_tags_limit: 422,
  bulk_selection_required: 400,
  bulk_selection_too_large: 422,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
