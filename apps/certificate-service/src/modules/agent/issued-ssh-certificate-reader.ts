/** The SSH certificate issued for an `ssh` request, as the agent installs it. */
export interface IssuedSshCertificate {
  /** `ssh-<serial>`: how the certificate routes name it. */
  readonly ref: string;
  readonly serial: bigint;
  /** The certificate blob (the base64 of it is the `*-cert.pub` text). */
  readonly blob: Buffer;
  /** `<cert type> <base64>`: the content of `id_<type>-cert.pub`. */
  readonly certificateText: string;
  /** The SSH CA public key blob and its authorized-keys line (`TrustedUserCAKeys`). */
  readonly caPublicKeyBlob: Buffer;
  readonly caPublicKey: string;
  readonly keyId: string;
  readonly principals: readonly string[];
  readonly validAfter: Date;
  readonly validBefore: Date;
}

/** Port to the `ssh_certificates` table: `modules/ssh` provides it globally. */
export interface IssuedSshCertificateReader {
  forRequest(requestId: string): Promise<IssuedSshCertificate | null>;
}

export const ISSUED_SSH_CERTIFICATE_READER = Symbol('ISSUED_SSH_CERTIFICATE_READER');
