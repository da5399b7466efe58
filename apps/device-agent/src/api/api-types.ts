/** Bodies of the enroll and agent routes (docs/certificate-service/enrollment.md). */
export interface EnrollBody {
  csr: string;
  serial: string;
  nonce: string;
  enrollment_token?: string;
  agent_version?: string;
  platform?: string;
  hostname?: string;
  tpm?: Record<string, unknown>;
  /** From `POST /enroll/source-nonce`; the body carrying it is signed (source-auth). */
  source_nonce?: string;
  /** The device's long-lived continuity key (SPKI PEM) and its signature (tpm-attestation.md). */
  continuity_key?: string;
  continuity_signature?: string;
}

export interface NonceAnswer {
  nonce: string;
  expires_at: string;
  /** A first TPM-attested enroll: the challenge to activate (tpm2-tools file, base64). */
  activation?: { credential_file: string };
}

export interface EnrollAnswer {
  request_id: string;
  status: string;
  purpose: string;
  serial: string;
  agent_secret: string;
  enrollment_token?: string;
}

export interface RequestStatusAnswer {
  request_id: string;
  status: string;
  terminal: boolean;
  purpose: string;
  created_at: string;
  decided_at: string | null;
}

export interface AgentCertificate {
  request_id: string;
  serial: string;
  certificate_pem: string;
  ca_bundle_pem: string;
  not_before: string;
  not_after: string;
  bundle_version: string;
}

export interface CheckinAnswer {
  request_id: string;
  installed_at: string;
  issuance_directives: IssuanceDirective[];
  /** An administrator asked for a log snapshot (log-snapshots.md). */
  upload_logs?: boolean;
  /** The device is blocked (a device revoke); false again after the unblock (enrollment.md). */
  blocked?: boolean;
}

export interface CrlAnswer {
  crls: { issuer: string; pem: string; this_update: string; next_update: string }[];
}

/** An open issuance directive of the check-in answer (issuance-directives.md). */
export interface IssuanceDirective {
  id: string;
  purpose: 'user_mtls' | 'ad_logon';
  user: string;
  upn: string | null;
  created_at: string;
}

export interface UserEnrollBody {
  serial: string;
  enrollment_token: string;
  csr: string;
  purpose: string;
  user: string;
  upn?: string;
  agent_version?: string;
}

/** One network profile of `POST /enroll/purposes` (networks.md, "How agents receive the profiles"). */
export interface NetworkProfile {
  id: string;
  updated_at: string;
  kind: 'wifi' | 'wired';
  name: string;
  ssid?: string | null;
  hidden?: boolean | null;
  eap_method: string;
  purpose: string;
  radius_server_names: string[];
  ca_chain_pem: string | null;
}

export interface PurposesAnswer {
  serial: string;
  purposes: string[];
  networks?: NetworkProfile[];
}

/** `POST /enroll/purpose-request` (enrollment.md). */
export interface PurposeRequestAnswer {
  status: 'pending' | 'already_allowed';
  request_id?: string;
  purpose: string;
}

/** `GET /requests/{id}/certificate` of an `ssh` request (ssh.md). */
export interface SshAgentCertificate {
  request_id: string;
  purpose: 'ssh';
  serial: string;
  ssh_certificate: string;
  ca_public_key: string;
  key_id: string;
  principals: string[];
  not_before: string;
  not_after: string;
  bundle_version: string;
}
