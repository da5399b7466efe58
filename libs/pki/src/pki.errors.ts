import { DomainError } from '@platform/errors';

/**
 * Stable codes of the PKI module. The service's global filter maps them to HTTP statuses
 * (csr_* and *_invalid input codes are 400; ca_* configuration codes are 500).
 */
export type PkiErrorCode =
  | 'der_invalid'
  | 'csr_invalid'
  | 'csr_too_large'
  | 'csr_signature_invalid'
  | 'csr_key_unsupported'
  | 'csr_algorithm_unsupported'
  | 'subject_invalid'
  | 'san_invalid'
  | 'purpose_unsupported'
  | 'lifetime_invalid'
  | 'ca_key_encryption_key_invalid'
  | 'ca_key_envelope_invalid'
  | 'ca_key_decrypt_failed'
  | 'ca_material_invalid'
  | 'ca_expired'
  | 'ca_not_yet_valid'
  | 'crl_invalid'
  | 'bundle_invalid'
  | 'ssh_key_invalid'
  | 'ssh_key_type_unsupported'
  | 'ssh_certificate_invalid'
  | 'ssh_ca_material_invalid'
  // EST issuer (RFC 7030): the server unreachable, refusing, or answering something unusable
  | 'est_config_invalid'
  | 'est_unreachable'
  | 'est_unauthorized'
  | 'est_refused'
  | 'est_pending_unsupported'
  | 'est_answer_invalid'
  | 'est_key_mismatch'
  // an issuer profile that cannot issue (kind without settings, unreadable secrets)
  | 'issuer_not_configured'
  // SCEP issuer (RFC 8894): configuration, transport, CA certificates, hostile or refusing answers
  | 'scep_config_invalid'
  | 'scep_transport_failed'
  | 'scep_ca_certificate_invalid'
  | 'scep_answer_invalid'
  | 'scep_refused';

/** The one error class of the PKI module. Messages never carry key material. */
export class PkiError extends DomainError {
  constructor(
    override readonly code: PkiErrorCode,
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(code, message, details);
  }
}
