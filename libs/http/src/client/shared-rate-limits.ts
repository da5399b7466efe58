import {
  type DynamicModule,
  type InjectionToken,
  Logger,
  Module,
  type ModuleMetadata,
  type OnApplicationShutdown,
} from '@nestjs/common';
import Redis from 'ioredis';
import { TrustedProxies } from './client-address';
import {
  MemoryRateLimiter,
  type RateDecision,
  type RateLimiter,
  RedisRateLimiter,
} from './rate-limiter';

/** Where a service keeps its rate-limit counters and whom it believes about client addresses. */
export interface SharedRateLimitsOptions {
  /**
   * Redis holding the counters, shared by every replica. Undefined: each process counts on
   * its own (development; N replicas then allow N times each limit), said once at start.
   */
  redisUrl: string | undefined;
  /** Prefix of every counter key (`findsvc:rl:`, `certsvc:rl:`; tests use one of their own). */
  keyPrefix: string;
  /** Redis client name, seen in `CLIENT LIST`. */
  connectionName: string;
  /** Peers whose `X-Forwarded-For` is believed (TRUSTED_PROXIES). */
  trustedProxies: string[];
}

const WINDOW_SECONDS = 60;

/**
 * The rate limits of one service: one-minute windows counted in Redis, so all replicas of the
 * service share one budget per key, and the client address as the trusted proxies tell it.
 * Fails open: when Redis cannot be reached the request is allowed and a warning logged, so an
 * unreachable Redis never takes the API down with it. Each service turns a refusal into its
 * own error (envelope, code `rate_limited`, `Retry-After`).
 */
export class SharedRateLimits implements RateLimiter, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly limiter: RateLimiter;
  private readonly proxies: TrustedProxies;
  private readonly redis: Redis | undefined;

  constructor(options: SharedRateLimitsOptions) {
    this.proxies = new TrustedProxies(options.trustedProxies);
    if (options.redisUrl === undefined) {
      this.limiter = new MemoryRateLimiter();
      this.logger.warn(
        'no Redis for the rate-limit counters: this process counts alone (N replicas allow N times each limit)',
      );
      return;
    }
    this.redis = new Redis(options.redisUrl, {
      connectionName: options.connectionName,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      // The hits of requests handled in one turn of the event loop go to Redis as one write
      // (a socket write is a system call per command otherwise; each hit stays its own atomic
      // script, counted in the same shared key as before).
      enableAutoPipelining: true,
    });
    // Errors surface on the calls (and fail open there); ioredis reconnects by itself.
    this.redis.on('error', () => undefined);
    this.limiter = new RedisRateLimiter(this.redis, options.keyPrefix);
  }

  /** True when the counters are in Redis (every replica shares them). */
  get shared(): boolean {
    return this.redis !== undefined;
  }

  /** The client address: `X-Forwarded-For` is believed only when the peer is a trusted proxy. */
  clientAddress(peer: string, forwardedFor: string | string[] | undefined): string {
    return this.proxies.clientAddress(peer, forwardedFor);
  }

  /** Counts one request against `key`'s budget of `limit` per window (one minute by default). */
  async hit(key: string, limit: number, windowSeconds = WINDOW_SECONDS): Promise<RateDecision> {
    try {
      return await this.limiter.hit(key, limit, windowSeconds);
    } catch (err) {
      this.logger.warn(`rate limiter unavailable, request allowed: ${(err as Error).message}`);
      return { allowed: true, limit, remaining: limit, retryAfterSeconds: 0 };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.redis) return;
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => undefined);
    // A client that never connected would keep retrying: stop it.
    this.redis.disconnect();
  }
}

const OPTIONS = Symbol('SHARED_RATE_LIMITS_OPTIONS');

export interface SharedRateLimitsModuleOptions {
  imports?: ModuleMetadata['imports'];
  inject: InjectionToken[];
  useFactory: (...dependencies: never[]) => SharedRateLimitsOptions;
}

/**
 * `SharedRateLimits` for a service's modules (global: import it once, where the service's
 * rate-limit adapter lives). Its Redis connection closes with the application.
 */
@Module({})
export class SharedRateLimitsModule {
  static forRootAsync(options: SharedRateLimitsModuleOptions): DynamicModule {
    return {
      module: SharedRateLimitsModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        { provide: OPTIONS, inject: options.inject, useFactory: options.useFactory },
        {
          provide: SharedRateLimits,
          inject: [OPTIONS],
          useFactory: (settings: SharedRateLimitsOptions) => new SharedRateLimits(settings),
        },
      ],
      exports: [SharedRateLimits],
    };
  }
}
