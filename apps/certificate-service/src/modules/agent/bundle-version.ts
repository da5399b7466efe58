import { createHash } from 'node:crypto';
import type { IssuedCertificate } from './issued-certificate-reader';
import type { IssuedSshCertificate } from './issued-ssh-certificate-reader';

/** Version of what the agent installs: changes when the certificate or any CA changes. */
export function bundleVersion(certificate: IssuedCertificate): string {
  const hash = createHash('sha256').update(certificate.certificateDer);
  for (const ca of certificate.chainDer) hash.update(ca);
  return hash.digest('hex').slice(0, 32);
}

/** The same for an SSH certificate: changes when the certificate or the SSH CA changes. */
export function sshBundleVersion(certificate: IssuedSshCertificate): string {
  return createHash('sha256')
    .update(certificate.blob)
    .update(certificate.caPublicKeyBlob)
    .digest('hex')
    .slice(0, 32);
}

/** Whether an `If-None-Match` header names this entity tag (weak comparison, `*`). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}
