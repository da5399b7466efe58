import { SubjectAltName } from '../certificate/subject-alt-names';
import { X509Purpose } from '../certificate/purposes';
import { ParsedCsr } from '../csr/csr.types';

/**
 * What an issuer needs of a CSR that was verified on receipt. A `ParsedCsr` is one; the
 * approval flow builds it from the stored request without parsing or verifying again.
 */
export type IssuableCsr = Pick<ParsedCsr, 'der' | 'publicKeySpkiDer' | 'keyAlgorithm'>;
import { PkiErrorCode } from '../pki.errors';
import { RevocationReason } from '../crl/revocation-reason';

/** What `GET /api/v1/issuer` reports about the configured issuer. */
export interface IssuerCapabilities {
  /** `built_in`, later `scep`, `external`. */
  readonly kind: string;
  /** True when `issue` may answer `pending` (request goes to `ca_pending`). */
  readonly async: boolean;
  readonly supportsRevoke: boolean;
  readonly supportsCrl: boolean;
  readonly purposes: readonly X509Purpose[];
}

export interface IssueRequest {
  /** The certificate request id; external issuers use it to correlate pending answers. */
  readonly requestId: string;
  readonly purpose: X509Purpose;
  /**
   * The CSR, verified when it was received (enrollment): its DER (for issuers that forward
   * the request, e.g. SCEP) and its public key. Requested SANs are never copied.
   */
  readonly csr: IssuableCsr;
  /** Device serial (machine purposes) or user identity. */
  readonly subjectCommonName: string;
  /** SANs the approval flow decided to issue. */
  readonly subjectAltNames?: readonly SubjectAltName[];
  /** UPN for `ad_logon` (added as otherName SAN). */
  readonly userPrincipalName?: string;
  /** Windows SID, added as the NTDS CA security extension when known. */
  readonly sid?: string;
  /** Issuance time; default now. */
  readonly now?: Date;
  /**
   * A renewal: the serial (lowercase hex) of the device's current certificate of this purpose
   * from an issuer of the same kind. An EST issuer then sends `simplereenroll`.
   */
  readonly renewalOf?: string;
}

export type IssueOutcome =
  | {
      readonly status: 'issued';
      readonly certificateDer: Buffer;
      /** Issuing CA first, root last. */
      readonly chainDer: readonly Buffer[];
      /** Lowercase hex. */
      readonly serial: string;
      readonly notBefore: Date;
      readonly notAfter: Date;
    }
  | {
      readonly status: 'pending';
      /** Opaque reference to poll the CA with (SCEP transaction id, order id ...). */
      readonly pendingReference: string;
      /** What `poll` needs besides the reference; plain JSON, stored with the pending record. */
      readonly pollState?: PendingPollState;
    };

/** Serialisable state of a pending issue (stored as JSON by the caller, handed back to `poll`). */
export type PendingPollState = Readonly<Record<string, string | number | boolean | null>>;

/** What `poll` is given: the original request's CSR and what the pending outcome carried. */
export interface PollRequest {
  readonly requestId: string;
  readonly purpose: X509Purpose;
  readonly csr: IssuableCsr;
  readonly pendingReference: string;
  readonly pollState?: PendingPollState;
}

/**
 * One poll of a pending issue: `issued`, still `pending` (same reference), or `failed` when
 * the CA answered a final refusal. A transient fault (network, hostile answer) is thrown as a
 * PkiError; the caller records it and polls again within its retry budget.
 */
export type PollOutcome =
  | IssueOutcome
  | { readonly status: 'failed'; readonly code: PkiErrorCode; readonly message: string };

/** A row of `issueMany` that failed; the batch carries on. */
export interface IssueFailure {
  readonly status: 'error';
  readonly code: PkiErrorCode;
  readonly message: string;
}

export type IssueManyOutcome = { readonly requestId: string } & (IssueOutcome | IssueFailure);

export type RevokeOutcome =
  | {
      readonly status: 'revoked';
      readonly serial: string;
      readonly reason: RevocationReason;
      readonly revokedAt: Date;
      /** The caller must publish a new CRL including this serial. */
      readonly crlUpdateRequired: boolean;
    }
  | {
      /** The CA has no revoke operation (SCEP): revoke at the CA by hand. */
      readonly status: 'unsupported';
      readonly serial: string;
    };

/** What the approval flow calls. Persistence of requests and revocations stays with the caller. */
export interface CertificateIssuer {
  readonly kind: string;
  capabilities(): IssuerCapabilities;
  issue(request: IssueRequest): Promise<IssueOutcome>;
  /** Bulk approval: one outcome per request in order; PkiErrors become `error` rows. */
  issueMany(requests: readonly IssueRequest[]): Promise<IssueManyOutcome[]>;
  revoke(serial: string, reason: RevocationReason): Promise<RevokeOutcome>;
  /** Asynchronous issuers (`capabilities().async`): asks the CA again about a pending issue. */
  poll?(request: PollRequest): Promise<PollOutcome>;
}
