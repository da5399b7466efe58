import type { CertsvcErrorCode } from './error-status';

/**
 * The client message (`message` of the `{code, message}` envelope) of every code a module's
 * error class throws: one catalogue for the whole service, next to the status table
 * (error-status.ts), as in the findings service (docs/architecture.md, Errors). Module error
 * classes hold only their code subset and take their text from here.
 */
export const CERTSVC_ERROR_MESSAGES = {
  // auth
  unauthorized: 'authentication required',
  invalid_credentials: 'invalid email or password',
  refresh_token_invalid: 'refresh token is invalid, expired or already used',
  forbidden: 'your role does not allow this',
  route_not_declared: 'route has no access declaration',
  local_auth_disabled: 'local sign-in is disabled',
  oidc_disabled: 'single sign-on is not configured',
  oidc_nonce_required: 'nonce is required: send the nonce of the authorization request',
  oidc_redirect_uri_not_allowed:
    'redirect_uri is not a callback page this service allows (CERTSVC_OIDC_REDIRECT_URIS)',
  oidc_provider_refused: 'the identity provider refused the sign-in (code invalid or already used)',
  oidc_id_token_invalid: 'the identity provider returned an invalid ID token',
  oidc_email_missing: 'the identity provider did not share an email address',
  oidc_email_unverified: 'the identity provider has not verified the email address',
  oidc_provider_unavailable: 'the identity provider cannot be reached',
  current_password_incorrect: 'current password is incorrect',
  not_local_user: 'the user signs in through single sign-on and has no local password',
  rate_limited: 'too many requests; try again later',
  // users and service accounts
  user_not_found: 'user not found',
  user_exists: 'a user with this email already exists',
  last_admin: 'the last enabled cert-admin cannot lose the role or be disabled',
  invalid_role: 'roles of people are cert-admin, cert-approver and cert-viewer',
  service_account_not_found: 'service account not found',
  invalid_purposes:
    'allowed_purposes must be a non-empty subset of wifi, user_mtls, ad_logon, ssh, k8s, vpn',
  // license
  license_invalid: 'the license file is not valid for this deployment',
  license_limit: 'approval would exceed the licensed number of devices',
  license_purpose_limit: 'no seats of the purpose remain under the license',
  license_tamper: 'the license usage ledger failed its integrity check',
  license_slot_not_found: 'no device slot is held by this identity key',
  // enrollment, agent, devices, settings
  nonce_invalid: 'nonce is unknown, expired or already used; ask for a new one',
  enrollment_token_invalid: 'serial or enrollment token is not valid',
  token_recover_failed:
    'the enrollment token cannot be recovered with this proof; ask for a new nonce and sign again',
  enroll_source_auth_failed: 'the request source could not be verified',
  tpm_evidence_invalid: 'a TPM structure in the request cannot be read; see details.field',
  purpose_not_assigned: 'this purpose is not assigned to the device or is denied for it',
  crl_unavailable: 'no revocation list is available yet',
  agent_unauthorized: 'unknown request or wrong X-Agent-Secret',
  certificate_not_issued: 'the request has not been issued yet; keep polling',
  device_not_found: 'no device with this serial',
  invalid_purpose: 'unknown purpose; one of wifi, user_mtls, ad_logon, ssh, k8s, vpn',
  purpose_request_not_found: 'no pending request for this purpose on this device',
  corp_allowlist_entry_not_found: 'this serial is not on the corp allowlist',
  // approval, certificates, revocation, CA
  request_not_found: 'no certificate request with this id',
  request_not_pending: 'the request is no longer awaiting a decision',
  purpose_not_allowed: 'the service account may not approve this purpose',
  corp_ownership_denied: 'the device is not confirmed as corporate-owned',
  device_blocked: 'the device is blocked',
  attestation_required: 'hardware attestation is required',
  purpose_unsupported: 'this purpose is not issued through request approval',
  certificate_not_found: 'no certificate with this serial',
  ca_revoke_unsupported:
    'the issuer configured for this purpose cannot revoke (SCEP); revoke the certificate at the CA by hand',
  issuer_revoke_failed: 'the issuer did not confirm the revocation; nothing changed, try again',
  ca_unavailable: 'the certificate authority is not loaded yet',
  // SSH key registry, principal aliases, key-holder API
  ssh_key_invalid: 'the SSH public key is malformed',
  ssh_key_type_unsupported: 'the SSH key type is not supported',
  ssh_key_not_found: 'SSH key not found',
  ssh_key_not_pending: 'only a pending SSH key can be approved or rejected',
  ssh_key_not_revocable: 'the SSH key is already revoked or rejected',
  ssh_key_revoked: 'this SSH key was revoked and cannot be registered again',
  ssh_key_in_use: 'this SSH key is registered by another device',
  ssh_key_binding_rejected:
    'the SSH key cannot be bound to the device owner (binding check: contradiction or no proof)',
  principal_alias_not_found: 'principal alias not found',
  principal_alias_exists: 'a principal alias with this name exists',
  principal_alias_member_not_found: 'this person is not a member of the alias',
  principal_alias_member_exists: 'this person is already a member of the alias',
  keyholder_network_denied: 'the key-holder API is not open to this address',
  keyholder_token_required: 'a server token (X-Keyholder-Token) is required',
  keyholder_token_invalid: 'the server token is unknown or revoked',
  keyholder_principal_denied: 'this server token may not read this login',
  keyholder_token_not_found: 'key-holder token not found',
  keyholder_token_revoked: 'the key-holder token is revoked',
  keyholder_certificate_not_found: 'no SSH certificate with this serial and key id',
  // SSH CA, SSH certificates, KRL
  ssh_ca_unavailable: 'the SSH certificate authority is not loaded',
  ssh_certificate_not_found: 'no SSH certificate with this serial',
  ssh_principals_missing:
    'the device has no owner with a valid login name and no principal alias: the certificate would name no account',
  ssh_krl_unavailable: 'the SSH key revocation list could not be built; try again',
  // Kubernetes cluster registry and credential broker
  k8s_cluster_not_found: 'Kubernetes cluster not found',
  k8s_cluster_exists: 'a Kubernetes cluster with this name exists',
  k8s_ca_bundle_invalid: 'ca_bundle must hold one or more PEM certificates',
  k8s_server_url_invalid: 'server_url must be an https URL without credentials, query or fragment',
  k8s_client_certificate_required:
    'present your user_mtls client certificate of this service (mutual TLS)',
  k8s_client_certificate_invalid:
    'the client certificate is not a user_mtls certificate issued by this service',
  k8s_client_certificate_expired: 'the client certificate has expired',
  k8s_client_certificate_revoked: 'the client certificate has been revoked',
  k8s_cluster_disabled: 'this Kubernetes cluster is disabled',
  k8s_prompt_unavailable:
    'cluster access needs a person to confirm and this session cannot ask (no terminal or graphical session)',
  k8s_public_key_invalid: 'public_key must be a PEM SubjectPublicKeyInfo (EC P-256/P-384 or RSA)',
  // Networks (Wi-Fi and wired 802.1X profiles)
  network_not_found: 'network not found',
  network_wired_active_exists:
    'another wired network is active: disable it first (at most one active wired network)',
  network_ssid_invalid:
    'ssid is required for a Wi-Fi network (1 to 32 bytes of UTF-8, no control characters) and not allowed for a wired one',
  // App attestation (docs/certificate-service/app-attest.md)
  app_attest_invalid:
    'the app attestation was not accepted; ask for a new challenge and attest again',
  app_attest_required:
    'enrollment from this Mac requires a verified app attestation (macOS 27 or later)',
  // Agent log snapshots
  log_snapshot_not_found: 'no log snapshot with this id on this device',
  log_snapshot_empty: 'the log snapshot is empty',
  log_snapshot_corrupt: 'the body is not a complete gzip stream',
  log_snapshot_too_large: 'the log snapshot exceeds CERTSVC_LOG_SNAPSHOT_MAX_BYTES',
  log_snapshot_inflated_too_large:
    'the gzip snapshot inflates beyond CERTSVC_LOG_SNAPSHOT_MAX_INFLATED_BYTES',
  log_snapshot_not_text: 'the inflated snapshot must be UTF-8 text without NUL bytes',
  log_snapshot_upload_in_progress: 'another upload for this device is in progress; retry later',
  log_request_not_found: 'no snapshot request is pending for this device',
  // Issuance directives
  issuance_directive_not_found: 'no issuance directive with this id',
  issuance_directive_exists:
    'an open directive for this purpose and person on this device exists: cancel it first',
  issuance_directive_closed: 'the directive is already done or failed',
  issuance_directive_cancelled: 'the directive was cancelled',
  // TPM vendor roots
  tpm_root_invalid: 'the certificate cannot be registered as a TPM vendor root',
  tpm_root_exists: 'this certificate is registered already (same SHA-256 fingerprint)',
  tpm_root_not_found: 'no TPM vendor root with this id',
  // Issuer profiles (settings/issuers)
  issuer_purpose_invalid:
    'issuer profiles exist for the X.509 purposes wifi, user_mtls, ad_logon and vpn',
  issuer_kind_invalid: 'kind must be built_in, scep or est',
  issuer_url_invalid:
    'url must be an https URL the request-forgery guard accepts (no credentials, query, local or metadata address)',
  issuer_settings_invalid: 'a setting of the issuer profile is invalid',
  issuer_secret_missing: 'a secret this issuer profile needs is missing',
  issuer_secret_key_missing:
    'issuer profile secrets cannot be stored: CERTSVC_SCEP_ENC_KEY is not configured',
  issuer_secret_unreadable:
    'the stored secrets of this profile cannot be opened with CERTSVC_SCEP_ENC_KEY; send them again',
  // Outgoing webhooks
  webhook_not_found: 'webhook endpoint not found',
  webhook_url_refused:
    'the webhook URL is refused by the request-forgery guard (scheme, credentials, local or metadata address)',
  webhook_disabled: 'the webhook endpoint is disabled; enable it first',
  webhook_encryption_key_missing:
    'webhook secrets cannot be stored: CERTSVC_WEBHOOK_ENC_KEY is not configured',
  webhooks_disabled: 'outgoing webhooks are switched off on this server (CERTSVC_WEBHOOKS_ENABLED)',
  // Identity SID look-ups (settings/identity-directory, enroll/identity-sid)
  identity_not_found: 'no single account with this user principal name was found',
  identity_directory_not_configured: 'no identity directory is configured, or it is disabled',
  identity_directory_unavailable: 'the identity directory cannot be reached; try again later',
  identity_directory_settings_invalid: 'a setting of the identity directory is invalid',
  identity_directory_secret_key_missing:
    'the bind password cannot be stored: CERTSVC_SCEP_ENC_KEY is not configured',
  identity_directory_secret_unreadable:
    'the stored bind password cannot be opened with CERTSVC_SCEP_ENC_KEY; send it again',
} as const satisfies Partial<Record<CertsvcErrorCode, string>>;

/** A code that module error classes throw (it has a catalogue message). */
export type CataloguedCode = keyof typeof CERTSVC_ERROR_MESSAGES;

/**
 * Where one code reads more precisely in one place than its catalogue text: the text for the
 * situation of the module that raises it (the code and status stay the same).
 */
export const CERTSVC_ERROR_MESSAGES_BY_SOURCE = {
  agent: {
    certificate_not_found: 'there is no certificate for this request',
    rate_limited: 'too many requests for this request id; try again later',
  },
  approval: {
    device_blocked: 'the device is blocked or the request was registered during a block',
  },
  auth: { rate_limited: 'too many attempts; try again later' },
  revocation: {
    certificate_not_found:
      'no certificate with this serial, neither in the store nor at the issuer',
  },
  'ssh-keys': { device_not_found: 'device not found' },
} as const satisfies Record<string, Partial<Record<CataloguedCode, string>>>;

export type ErrorSource = keyof typeof CERTSVC_ERROR_MESSAGES_BY_SOURCE;

/** The message of `code` as raised by `source` (the module's own text if it has one). */
export function certsvcErrorMessage(code: CataloguedCode, source?: ErrorSource): string {
  const own: Partial<Record<CataloguedCode, string>> | undefined =
    source && CERTSVC_ERROR_MESSAGES_BY_SOURCE[source];
  return own?.[code] ?? CERTSVC_ERROR_MESSAGES[code];
}
