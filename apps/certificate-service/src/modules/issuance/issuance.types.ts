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

export type IssuanceOutcome =
  | { status: 'issued'; serial: string }
  | { status: 'ca_pending' }
  | { status: 'error'; error: string };
