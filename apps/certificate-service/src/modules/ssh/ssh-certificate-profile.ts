/** SSH certificates live 24 hours (specification, "Certificate lifetimes": fixed). */
export const SSH_CERTIFICATE_LIFETIME_MS = 24 * 3600_000;
/** validAfter lies this far before issuance, for clocks of target servers that run behind. */
export const SSH_CERTIFICATE_BACKDATE_MS = 5 * 60_000;

/**
 * Key id of a certificate: `certsvc:<request id>:<device serial>`. The request id has a fixed
 * length, so the device serial (which may contain `:` or spaces) is everything after the
 * second colon. sshd logs it with every login (`ID certsvc:...`).
 */
export function sshKeyId(requestId: string, deviceSerial: string): string {
  return `certsvc:${requestId}:${deviceSerial}`;
}

/** How certificate routes name an SSH certificate: `ssh-<serial>` (X.509 serials are hex). */
export const SSH_CERTIFICATE_REF_PATTERN = /^ssh-([1-9][0-9]{0,19})$/;

export function sshCertificateRef(serial: bigint | string): string {
  return `ssh-${serial.toString()}`;
}

/** The serial of an `ssh-<serial>` reference, or undefined for anything else. */
export function parseSshCertificateRef(ref: string): bigint | undefined {
  const match = SSH_CERTIFICATE_REF_PATTERN.exec(ref.trim().toLowerCase());
  if (!match) return undefined;
  const serial = BigInt(match[1]);
  return serial < 1n << 64n ? serial : undefined;
}
