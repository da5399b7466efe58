/** The certificate issued for a request, with the CA chain the agent installs. */
export interface IssuedCertificate {
  /** Lowercase hex. */
  readonly serial: string;
  readonly certificateDer: Buffer;
  /** Issuing CA first, root last. */
  readonly chainDer: readonly Buffer[];
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/**
 * Port to the `certificates` table: `modules/certificates` provides it globally under
 * `ISSUED_CERTIFICATE_READER` (`CertificateTableReader`).
 */
export interface IssuedCertificateReader {
  /** The current certificate of the request (the newest one issued for it), or null. */
  forRequest(requestId: string): Promise<IssuedCertificate | null>;
}

export const ISSUED_CERTIFICATE_READER = Symbol('ISSUED_CERTIFICATE_READER');
