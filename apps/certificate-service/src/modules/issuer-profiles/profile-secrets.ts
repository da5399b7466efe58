import { openPrivateKey, sealPrivateKey } from '@platform/pki';
import type { ProfileSecrets } from './issuer-profile.model';

/** Additional data binding an envelope to its purpose: one purpose's secrets cannot be moved to another. */
function label(purpose: string): string {
  return `issuer_profile:${purpose}:v1`;
}

/** AES-256-GCM envelope (libs/pki key-envelope, the CA key format) of the secrets as JSON. */
export function sealSecrets(secrets: ProfileSecrets, key: Buffer, purpose: string): string {
  const clear = Buffer.from(JSON.stringify(secrets), 'utf8');
  try {
    return sealPrivateKey(clear, key, label(purpose));
  } finally {
    clear.fill(0);
  }
}

/** The secrets, or undefined when the envelope cannot be opened (wrong key, damaged). */
export function openSecrets(
  envelope: string,
  key: Buffer | undefined,
  purpose: string,
): ProfileSecrets | undefined {
  if (key === undefined) return undefined;
  try {
    const clear = openPrivateKey(envelope, key, label(purpose));
    const value = JSON.parse(clear.toString('utf8')) as unknown;
    clear.fill(0);
    return typeof value === 'object' && value !== null ? (value as ProfileSecrets) : undefined;
  } catch {
    return undefined;
  }
}

/** Which secrets are stored, without opening anything that is not needed. */
export function secretFlags(secrets: ProfileSecrets | undefined): Record<string, boolean> {
  return {
    password: secrets?.password !== undefined,
    client_key_pem: secrets?.client_key_pem !== undefined,
    challenge_password: secrets?.challenge_password !== undefined,
    requester_key_pem: secrets?.requester_key_pem !== undefined,
  };
}
