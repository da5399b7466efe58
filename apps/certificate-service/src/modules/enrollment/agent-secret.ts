import { randomSecret, sha256Hex } from '@platform/auth';

/** A new agent secret (returned once at enrollment) and the hash that is stored. */
export function issueAgentSecret(): { secret: string; hash: string } {
  const secret = `was_${randomSecret(32)}`;
  return { secret, hash: sha256Hex(secret) };
}
