import type { IssuableCsr, X509Purpose } from '@platform/pki';

/** A pending request that passed the approval checks. */
export interface IssuableRequest {
  requestId: string;
  deviceId: string;
  /** Licence identity of the device (`ek:`, `sn:`, `pk:`). */
  identityKey: string;
  purpose: X509Purpose;
  /** Stored at enrollment, where the CSR signature was verified. */
  csr: IssuableCsr;
  /** Subject common name: device serial, or the user identity for user purposes. */
  subject: string;
  userIdentity: string | null;
  upn: string | null;
  sid: string | null;
}

/** A pending `ssh` request that passed the approval checks (signed by the SSH CA). */
export interface SshIssuableRequest {
  requestId: string;
  deviceId: string;
  /** Licence identity of the device (`ek:`, `sn:`, `pk:`). */
  identityKey: string;
  purpose: 'ssh';
  deviceSerial: string;
  /** Device owner now: whose login names and principal aliases the certificate carries. */
  owner: string | null;
  /** OpenSSH public key blob, validated at `POST /enroll/ssh`. */
  publicKeyBlob: Buffer;
}

/** Any request the approval flow hands to issuance. */
export type ApprovedRequest = IssuableRequest | SshIssuableRequest;

export function isSshIssuable(row: ApprovedRequest): row is SshIssuableRequest {
  return row.purpose === 'ssh';
}

export type IssuanceOutcome =
  | { status: 'issued'; serial: string }
  | { status: 'ca_pending' }
  | { status: 'error'; error: string };
