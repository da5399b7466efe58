import { ErrorStatusMap } from '@platform/errors';

/**
 * The one table from error code to HTTP status for the whole service. Module error classes
 * (`AuthError`, `UsersError`, ...) throw these codes; the global filter looks them up here.
 */
export const CERTSVC_ERROR_STATUSES = {
  // generic
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  // auth
  invalid_credentials: 401,
  token_invalid: 401,
  refresh_token_invalid: 401,
  role_required: 403,
  route_not_declared: 403,
  local_auth_disabled: 404,
  oidc_disabled: 404,
  oidc_nonce_required: 400,
  oidc_provider_refused: 401,
  oidc_id_token_invalid: 401,
  oidc_email_missing: 401,
  oidc_email_unverified: 401,
  oidc_provider_unavailable: 502,
  current_password_incorrect: 400,
  password_too_weak: 400,
  // users and service accounts
  user_not_found: 404,
  user_exists: 409,
  last_admin: 409,
  invalid_role: 400,
  not_local_user: 409,
  service_account_not_found: 404,
  invalid_purposes: 400,
  // license (specification, Errors)
  license_invalid: 400,
  license_limit: 402,
  license_tamper: 402,
  license_purpose_limit: 402,
  // enrollment (specification, Errors)
  enroll_source_auth_failed: 403,
  // enrollment, agent, devices, requests, settings
  nonce_invalid: 400,
  enrollment_token_invalid: 401,
  purpose_not_assigned: 403,
  agent_unauthorized: 401,
  certificate_not_issued: 409,
  certificate_not_found: 404,
  crl_unavailable: 404,
  device_not_found: 404,
  purpose_request_not_found: 404,
  corp_allowlist_entry_not_found: 404,
  invalid_purpose: 400,
  // approval, issuance, certificates, revocation, license slots, CA
  request_not_found: 404,
  request_not_pending: 409,
  purpose_not_allowed: 403,
  corp_ownership_denied: 403,
  device_blocked: 403,
  attestation_required: 403,
  purpose_unsupported: 400,
  license_slot_not_found: 404,
  ca_revoke_unsupported: 400,
  issuer_revoke_failed: 502,
  ca_unavailable: 503,
  // SSH key registry, principal aliases, key-holder API
  ssh_key_invalid: 400,
  ssh_key_type_unsupported: 400,
  ssh_key_not_found: 404,
  ssh_key_not_pending: 409,
  ssh_key_not_revocable: 409,
  ssh_key_revoked: 409,
  ssh_key_in_use: 409,
  ssh_key_binding_rejected: 422,
  principal_alias_not_found: 404,
  principal_alias_exists: 409,
  principal_alias_member_not_found: 404,
  principal_alias_member_exists: 409,
  keyholder_network_denied: 403,
  keyholder_token_required: 401,
  keyholder_token_invalid: 401,
  keyholder_principal_denied: 403,
  keyholder_token_not_found: 404,
  keyholder_token_revoked: 409,
  keyholder_certificate_not_found: 404,
  // SSH CA, SSH certificates, KRL
  ssh_disabled: 404,
  ssh_ca_unavailable: 503,
  ssh_certificate_not_found: 404,
  ssh_principals_missing: 409,
  ssh_krl_unavailable: 503,
  ssh_certificate_invalid: 400,
  ssh_ca_material_invalid: 500,
  // Kubernetes cluster registry and credential broker
  k8s_cluster_not_found: 404,
  k8s_cluster_exists: 409,
  k8s_ca_bundle_invalid: 400,
  k8s_server_url_invalid: 400,
} as const satisfies Record<string, number>;

export type CertsvcErrorCode = keyof typeof CERTSVC_ERROR_STATUSES;

export const certsvcErrorStatuses = new ErrorStatusMap(CERTSVC_ERROR_STATUSES, 400);
