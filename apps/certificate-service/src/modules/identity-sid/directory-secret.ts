import { openPrivateKey, sealPrivateKey } from '@platform/pki';

/** Additional data binding the envelope to this use: it cannot be moved to another secret. */
const LABEL = 'identity_directory:bind_password:v1';

/**
 * The bind password sealed with `CERTSVC_SCEP_ENC_KEY`: the AES-256-GCM key envelope of
 * libs/pki, the same mechanism as issuer-profile secrets and CA keys.
 */
export function sealBindPassword(password: string, key: Buffer): string {
  const clear = Buffer.from(password, 'utf8');
  try {
    return sealPrivateKey(clear, key, LABEL);
  } finally {
    clear.fill(0);
  }
}

/** The password, or undefined when the envelope cannot be opened (no key, wrong key, damaged). */
export function openBindPassword(envelope: string, key: Buffer | undefined): string | undefined {
  if (key === undefined) return undefined;
  try {
    const clear = openPrivateKey(envelope, key, LABEL);
    const text = clear.toString('utf8');
    clear.fill(0);
    return text;
  } catch {
    return undefined;
  }
}
