/** One current revocation list, DER-encoded, with its issuer's name for the client. */
export interface CurrentCrl {
  readonly issuer: string;
  readonly der: Buffer;
  readonly thisUpdate: Date;
  readonly nextUpdate: Date;
}

/**
 * Port to the revocation lists of the CRL store: `modules/crl` provides it globally under
 * `CRL_SOURCE`. Optional: without a provider `POST /enroll/crl` answers 404 `crl_unavailable`.
 */
export interface CrlSource {
  current(): Promise<readonly CurrentCrl[]>;
}

export const CRL_SOURCE = Symbol('CRL_SOURCE');
