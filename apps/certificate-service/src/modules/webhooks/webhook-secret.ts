import { randomBytes } from 'node:crypto';
import { openPrivateKey, sealPrivateKey } from '@platform/pki';

/**
 * Webhook secrets at rest: the platform's AES-256-GCM envelope (libs/pki key-envelope, the CA
 * key and issuer-profile format, `v1:<iv>:<tag>:<ciphertext>`) under `CERTSVC_WEBHOOK_ENC_KEY`,
 * `label` bound as additional data so a sealed secret cannot be moved to another row. Never
 * logged.
 */
export function sealSecret(secret: string, key: Buffer, label: string): string {
  const clear = Buffer.from(secret, 'utf8');
  try {
    return sealPrivateKey(clear, key, label);
  } finally {
    clear.fill(0);
  }
}

/** The secret, or undefined when the envelope is damaged or sealed under another key or label. */
export function openSecret(envelope: string, key: Buffer, label: string): string | undefined {
  try {
    return openPrivateKey(envelope, key, label).toString('utf8');
  } catch {
    return undefined;
  }
}

/** A fresh signing secret: 32 random bytes, `whsec_` + base64url. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Additional data binding an endpoint's sealed secret to its row. */
export function endpointSecretLabel(endpointId: string): string {
  return `webhook:${endpointId}`;
}

/** Additional data of the corp-ownership webhook's sealed secret. */
export const CORP_OWNERSHIP_SECRET_LABEL = 'corp-ownership-webhook';
