import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Webhook secrets at rest: AES-256-GCM under `CERTSVC_WEBHOOK_ENC_KEY`, envelope
 * `v1:<iv>:<tag>:<ciphertext>` (base64url), `label` bound as additional data so a sealed
 * secret cannot be moved to another row. Never logged.
 */
export function sealSecret(secret: string, key: Buffer, label: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(label, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join(':');
}

/** The secret, or undefined when the envelope is damaged or sealed under another key or label. */
export function openSecret(envelope: string, key: Buffer, label: string): string | undefined {
  const parts = envelope.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parts[1], 'base64url'));
    decipher.setAAD(Buffer.from(label, 'utf8'));
    decipher.setAuthTag(Buffer.from(parts[2], 'base64url'));
    const plain = Buffer.concat([
      decipher.update(Buffer.from(parts[3], 'base64url')),
      decipher.final(),
    ]);
    return plain.toString('utf8');
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
