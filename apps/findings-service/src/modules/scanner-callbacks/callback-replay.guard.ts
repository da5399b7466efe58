import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createRedisConnection } from '@platform/queue';
import type { Redis } from 'ioredis';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';

/** How long a callback waits for the first connection to Redis. */
const READY_TIMEOUT_MS = 1_500;

/** Redis was not reachable: replay protection cannot be checked, so the callback is refused. */
export class ReplayStoreUnavailable extends Error {}

/**
 * Remembers every accepted callback signature for twice the allowed clock skew, in Redis, so
 * that all API replicas share one memory: the same signed request is accepted once.
 */
@Injectable()
export class CallbackReplayGuard implements OnApplicationShutdown {
  private connection: Redis | undefined;

  constructor(@Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig) {}

  /** True the first time a (key, signature) pair is seen; false for a replay. */
  async firstSighting(keyId: string, signature: string): Promise<boolean> {
    const ttl = this.config.autoClosure.callbackMaxSkewSeconds * 2;
    const key = `${this.config.reports.queuePrefix}:callback-replay:${keyId}:${signature.slice(0, 200)}`;
    try {
      const redis = await this.ready();
      const set = await redis.set(key, '1', 'EX', ttl, 'NX');
      return set === 'OK';
    } catch (error) {
      throw new ReplayStoreUnavailable((error as Error).message);
    }
  }

  /** The connection once ready (a producer connection refuses commands before that). */
  private async ready(): Promise<Redis> {
    const redis = (this.connection ??= createRedisConnection(this.config.redisUrl, {
      name: `findings-${this.config.role}-callback-replay`,
      role: 'producer',
    }));
    if (redis.status === 'ready') return redis;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        reject(new Error(`not connected to Redis within ${READY_TIMEOUT_MS} ms`));
      }, READY_TIMEOUT_MS);
      const onReady = (): void => {
        clearTimeout(timer);
        resolve();
      };
      redis.once('ready', onReady);
    });
    return redis;
  }

  onApplicationShutdown(): void {
    this.connection?.disconnect();
  }
}
