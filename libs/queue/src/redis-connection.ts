import { Redis, type RedisOptions } from 'ioredis';

/**
 * - `worker`: for BullMQ `Worker`s (and QueueEvents). BullMQ requires
 *   `maxRetriesPerRequest: null` on their connections (it throws otherwise): blocking
 *   commands must wait through reconnects instead of failing after N retries. Commands
 *   issued while disconnected are queued and sent on reconnect.
 * - `producer`: for `Queue`s that HTTP requests add jobs to. `enableOfflineQueue: false`
 *   makes a command fail at once while Redis is unreachable (instead of waiting in
 *   ioredis' offline queue, and being sent later, after the caller gave up); with `addJob`
 *   the request answers 503 quickly. It still reconnects in the background.
 */
export type RedisRole = 'worker' | 'producer';

export interface RedisConnectionOptions {
  /** Connection name shown by `CLIENT LIST`, e.g. `findings-api`. */
  name: string;
  /** Defaults to `worker`, the setting BullMQ accepts everywhere. */
  role?: RedisRole;
  /** Connection errors (refused, reset) while (re)connecting; they also surface on commands. */
  onError?: (error: Error) => void;
}

const roleOptions: Record<RedisRole, RedisOptions> = {
  worker: {
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: (attempt) => Math.min(attempt * 500, 5_000),
  },
  producer: {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  },
};

/**
 * An ioredis connection for BullMQ. Pass it as `connection` to Queue/Worker (BullMQ does not
 * close connections it did not create: call `quit()` on shutdown). Use one connection per
 * role and process; do not set ioredis `keyPrefix` (BullMQ refuses it: use `prefix`).
 */
export function createRedisConnection(url: string, options: RedisConnectionOptions): Redis {
  const redis = new Redis(url, {
    ...roleOptions[options.role ?? 'worker'],
    connectionName: options.name,
    // ioredis arms this timer on disconnect() even when the socket is already gone (Redis was
    // down), which keeps the process alive for that long: 2 s by default.
    disconnectTimeout: 500,
  });
  // Without a listener ioredis prints "Unhandled error event" for every failed reconnect.
  redis.on('error', (error: Error) => options.onError?.(error));
  return redis;
}
