import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { randomSecret, sha256Hex } from '@platform/auth';
import Redis from 'ioredis';
import type { DownloadPurpose } from '../../../app/access/access.decorators';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import { FindingsConfig } from '../../../app/config/findings-config';

/**
 * The query parameter a download link carries its secret in. Its name holds `token`, so the
 * logging library writes `[redacted]` for its value on every sink (download-links.spec.ts).
 */
export const DOWNLOAD_TOKEN_PARAM = 'download_token';

/** How long a download link can be redeemed after it was made. */
export const DOWNLOAD_LINK_TTL_SECONDS = 60;

const KEY_PREFIX = 'findsvc:download-link:';
const TOKEN_PREFIX = 'dl_';

/** An issued link's secret (shown once, in its URL) and when it stops working. */
export interface IssuedDownloadLink {
  token: string;
  expiresAt: Date;
}

/**
 * Single-use download links (docs/findings-service/findings-api.md#export-links): a browser
 * cannot put a bearer token on a plain navigation, so a signed-in user trades one for a link
 * that a native download streams to disk. The secret is random (32 bytes), stored only as its
 * SHA-256 in Redis with the user and the purpose, lives DOWNLOAD_LINK_TTL_SECONDS and is
 * redeemed atomically (GETDEL): exactly once, on any replica. Redeeming re-reads the user, so
 * a link outlives neither a deactivation nor a lost role.
 */
@Injectable()
export class DownloadLinks implements OnApplicationShutdown {
  private readonly redis: Redis;

  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    this.redis = new Redis(config.redisUrl, {
      connectionName: `findings-${config.role}-download-links`,
      lazyConnect: true,
      maxRetriesPerRequest: 1,
    });
  }

  async issue(userId: string, purpose: DownloadPurpose): Promise<IssuedDownloadLink> {
    const token = `${TOKEN_PREFIX}${randomSecret(32)}`;
    const value = JSON.stringify({ user_id: userId, purpose });
    await this.redis.set(keyOf(token), value, 'EX', DOWNLOAD_LINK_TTL_SECONDS);
    return { token, expiresAt: new Date(Date.now() + DOWNLOAD_LINK_TTL_SECONDS * 1000) };
  }

  /** The user the link was issued to; null when it is unknown, used, expired or for another purpose. */
  async redeem(token: string, purpose: DownloadPurpose): Promise<string | null> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
    const value = await this.redis.getdel(keyOf(token));
    if (value === null) return null;
    const link = JSON.parse(value) as { user_id?: unknown; purpose?: unknown };
    return link.purpose === purpose && typeof link.user_id === 'string' ? link.user_id : null;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => undefined);
    else this.redis.disconnect();
  }
}

function keyOf(token: string): string {
  return `${KEY_PREFIX}${sha256Hex(token)}`;
}
