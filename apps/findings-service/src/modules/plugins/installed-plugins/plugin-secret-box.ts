import { Inject, Injectable } from '@nestjs/common';
import { SealedBox } from '@platform/auth';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';

/**
 * Seals the secret-marked settings of an installation (one JSON object of strings) with
 * AES-256-GCM under a key derived from PLUGIN_SECRETS_KEY (HKDF-SHA256, purpose
 * `plugin-secret-settings`) — the service's SealedBox. Stored as base64url text.
 */
@Injectable()
export class PluginSecretBox {
  private readonly box: SealedBox;

  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    this.box = new SealedBox(config.plugins.secretsKey, 'plugin-secret-settings');
  }

  seal(values: Record<string, string>): string | null {
    return Object.keys(values).length === 0 ? null : this.box.seal(values);
  }

  /** The sealed values; an unreadable value (other key, altered) reads as none set. */
  open(sealed: string | null): Record<string, string> {
    if (sealed === null) return {};
    const value = this.box.open(sealed);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v === 'string') out[k] = v;
    }
    return out;
  }
}
