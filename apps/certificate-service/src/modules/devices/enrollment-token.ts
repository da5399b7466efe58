import { randomSecret, sha256Hex } from '@platform/auth';

const PREFIX = 'wet_';

/** A new enrollment token (shown once) and the hash that is stored. */
export function issueEnrollmentToken(): { token: string; hash: string } {
  const token = `${PREFIX}${randomSecret(32)}`;
  return { token, hash: sha256Hex(token) };
}
