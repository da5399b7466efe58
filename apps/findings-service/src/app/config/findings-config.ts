import { EnvReader } from '@platform/config';
import { LOG_LEVELS, LogLevel } from '@platform/logging';
import { randomSecret } from '@platform/auth';
import { TrustedProxies } from '@platform/http';
import { readTracingSettings, type TracingSettings } from '@platform/tracing';
import { readSsoConfig, type SsoConfig } from './sso-config';
import {
  readPluginRunnerClientConfig,
  type PluginRunnerClientConfig,
} from './plugin-runner-config';
import { readDashboardToolSegment } from './dashboard-config';
import { readCleanupConfig, type CleanupConfig } from './cleanup-config';
import { readAutoClosureConfig, type AutoClosureConfig } from './auto-closure-config';
import { readPluginsConfig, type PluginsConfig } from './plugins-config';
import { readOutboundConfig, type OutboundConfig } from './outbound-config';
import { readNotificationsConfig, type NotificationsConfig } from './notifications-config';
import { readMailConfig, type MailConfig } from './mail-config';
import {
  readEnrichmentConfig,
  readFindingSourcesConfig,
  type EnrichmentConfig,
  type FindingSourcesConfig,
} from './enrichment-config';

export type ProcessRole = 'api' | 'worker';

/** Typed configuration of one findings-service process, read once at boot. */
export interface FindingsConfig {
  role: ProcessRole;
  port: number;
  host: string;
  metricsPort: number;
  databaseUrl: string;
  redisUrl: string;
  appEnv: string;
  production: boolean;
  logLevel: LogLevel;
  logFileSinkEnabled: boolean;
  logDir: string;
  jwt: { secret: string; generated: boolean; accessTokenTtlSeconds: number };
  refreshTokenTtlDays: number;
  cookieSecure: boolean;
  bootstrapAdminEmails: string[];
  localAuth: { enabled: boolean; adminEmail?: string; adminPassword?: string };
  sso: SsoConfig;
  rateLimits: { api: number; user: number; serviceAccount: number; auth: number };
  rateLimitKeyPrefix: string;
  trustedProxies: string[];
  migrationLockWaitSeconds: number;
  /** DASHBOARD_TOOL_SEGMENT: `/api/v1/{segment}/...` routes for an external dashboard tool. */
  dashboardToolSegment: string;
  /** Report upload and ingestion (projects/products/reports modules). */
  reports: ReportsConfig;
  /** The plugin runner's API (PLUGIN_RUNNER_URL, PLUGIN_RUNNER_TOKEN; docs/plugins/runner-api.md). */
  pluginRunner: PluginRunnerClientConfig;
  /** The service's own outgoing calls through the shared guard (OUTBOUND_*; docs/egress.md). */
  outbound: OutboundConfig;
  /** Plugin catalogs, artifacts and secret settings (docs/plugins/installation.md). */
  plugins: PluginsConfig;
  /** The SMTP sender of the e-mail channel (SMTP_*; docs/findings-service/mail.md). */
  mail: MailConfig;
  /** Enrichment jobs and the manual route's limit (docs/plugins/enrichment.md). */
  enrichment: EnrichmentConfig;
  /** Notification delivery (docs/findings-service/notifications.md). */
  notifications: NotificationsConfig;
  /** Polling of finding-source plugins (docs/plugins/finding-sources.md). */
  findingSources: FindingSourcesConfig;
  /** Report and refresh-token cleanup, run hourly by the leading worker. */
  cleanup: CleanupConfig;
  /** Automatic closure, re-verification and scanner callbacks (docs/findings-service/auto-closure.md). */
  autoClosure: AutoClosureConfig;
  /** METRICS_COLLECT_INTERVAL_SECONDS: period of the business metrics collection (API only). */
  metricsCollectIntervalSeconds: number;
  /**
   * SLA_CHECK_INTERVAL_SECONDS (default 3600, the spec's hourly check): period of the leading
   * worker's deadline check (`sla-check`). Shorter for tests and demonstrations.
   */
  slaCheckIntervalSeconds: number;
  /** Trace export and sampling (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_TRACES_SAMPLER_ARG). */
  tracing: TracingSettings;
}

export interface ReportsConfig {
  /** REPORT_MAX_BYTES: upload ceiling, answered with 413 while streaming (default 200 MiB). */
  maxBytes: number;
  /** REPORT_STORAGE_DIR: where uploaded report files are kept. */
  storageDir: string;
  /** QUEUE_PREFIX: BullMQ key prefix (tests isolate with their own). */
  queuePrefix: string;
  /** INGEST_CONCURRENCY: reports processed at once by one worker process. */
  ingestConcurrency: number;
  /** INGEST_LOCK_MS: BullMQ job lock; a dead worker's job is retried after about this long. */
  ingestLockMs: number;
  /** INGEST_ATTEMPTS: attempts of an ingestion job before it stays failed. */
  ingestAttempts: number;
}

type Env = Record<string, string | undefined>;

/** Reads and validates the environment; throws ConfigError listing every problem. */
export function loadFindingsConfig(
  env: Env = process.env,
  role: ProcessRole = 'api',
): FindingsConfig {
  const r = new EnvReader(env);
  const appEnv = r.string('APP_ENV', 'development');
  const production = appEnv === 'production';
  const jwtSecret = production ? r.requiredString('JWT_SECRET') : r.optionalString('JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32 && production) {
    r.problem('JWT_SECRET must be at least 32 characters');
  }
  const trustedProxies = r.list('TRUSTED_PROXIES');
  try {
    new TrustedProxies(trustedProxies);
  } catch (e) {
    r.problem((e as Error).message);
  }
  const adminEmail = r.optionalString('LOCAL_ADMIN_EMAIL')?.toLowerCase();
  const adminPassword = r.optionalString('LOCAL_ADMIN_PASSWORD');
  if ((adminEmail === undefined) !== (adminPassword === undefined)) {
    r.problem('LOCAL_ADMIN_EMAIL and LOCAL_ADMIN_PASSWORD must be set together');
  }
  const port = { min: 0, max: 65535 };
  const plugins = readPluginsConfig(r, production, jwtSecret);
  const config: FindingsConfig = {
    role,
    port: r.int('PORT', 3000, port),
    host: r.string('HOST', '0.0.0.0'),
    metricsPort: r.int('METRICS_PORT', role === 'api' ? 9090 : 9091, port),
    databaseUrl: r.requiredString('DATABASE_URL'),
    redisUrl: r.requiredString('REDIS_URL'),
    appEnv,
    production,
    logLevel: r.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    logFileSinkEnabled: r.bool('LOG_FILE_SINK_ENABLED', true),
    logDir: r.string('LOG_DIR', '/var/tmp/secplatform/logs'),
    jwt: {
      secret: jwtSecret ?? randomSecret(48),
      generated: jwtSecret === undefined,
      accessTokenTtlSeconds: r.int('ACCESS_TOKEN_TTL_SECONDS', 900, { min: 30, max: 86400 }),
    },
    refreshTokenTtlDays: r.int('REFRESH_TOKEN_TTL_DAYS', 14, { min: 1, max: 365 }),
    cookieSecure: r.bool('COOKIE_SECURE', true),
    bootstrapAdminEmails: r.list('BOOTSTRAP_ADMIN_EMAILS').map((e) => e.toLowerCase()),
    localAuth: { enabled: r.bool('LOCAL_AUTH_ENABLED', true), adminEmail, adminPassword },
    sso: readSsoConfig(r),
    rateLimits: {
      api: r.int('RATE_LIMIT_API', 600, { min: 1 }),
      user: r.int('RATE_LIMIT_API_USER', 300, { min: 1 }),
      serviceAccount: r.int('RATE_LIMIT_API_SERVICE_ACCOUNT', 1200, { min: 1 }),
      auth: r.int('RATE_LIMIT_AUTH', 10, { min: 1 }),
    },
    rateLimitKeyPrefix: r.string('RATE_LIMIT_KEY_PREFIX', 'findsvc:rl:'),
    trustedProxies,
    migrationLockWaitSeconds: r.int('MIGRATION_LOCK_WAIT_SECONDS', 180, { min: 0 }),
    dashboardToolSegment: readDashboardToolSegment(r),
    reports: {
      maxBytes: r.int('REPORT_MAX_BYTES', 200 * 1024 * 1024, { min: 1 }),
      storageDir: r.string('REPORT_STORAGE_DIR', '/var/tmp/secplatform/reports'),
      queuePrefix: r.string('QUEUE_PREFIX', 'findsvc'),
      ingestConcurrency: r.int('INGEST_CONCURRENCY', 1, { min: 1, max: 16 }),
      ingestLockMs: r.int('INGEST_LOCK_MS', 30_000, { min: 1_000 }),
      ingestAttempts: r.int('INGEST_ATTEMPTS', 3, { min: 1, max: 20 }),
    },
    pluginRunner: readPluginRunnerClientConfig(r),
    outbound: readOutboundConfig(r, production),
    plugins,
    enrichment: readEnrichmentConfig(r),
    notifications: readNotificationsConfig(r),
    mail: readMailConfig(r),
    findingSources: readFindingSourcesConfig(r),
    cleanup: readCleanupConfig(r),
    autoClosure: readAutoClosureConfig(r, plugins.secretsKey),
    metricsCollectIntervalSeconds: r.int('METRICS_COLLECT_INTERVAL_SECONDS', 60, {
      min: 1,
      max: 86_400,
    }),
    slaCheckIntervalSeconds: r.int('SLA_CHECK_INTERVAL_SECONDS', 3_600, { min: 1, max: 86_400 }),
    tracing: readTracingSettings(r),
  };
  r.done();
  return config;
}

/** Start-up warnings about the rate limits: a per-identity limit above the address floor. */
export function rateLimitWarnings(limits: FindingsConfig['rateLimits']): string[] {
  const warnings: string[] = [];
  const { api, user, serviceAccount } = limits;
  if (user > api) {
    warnings.push(
      `RATE_LIMIT_API_USER=${user} exceeds RATE_LIMIT_API=${api}: from one address a user is held to ${api} requests per minute`,
    );
  }
  if (serviceAccount > api) {
    warnings.push(
      `RATE_LIMIT_API_SERVICE_ACCOUNT=${serviceAccount} exceeds RATE_LIMIT_API=${api}: from one address a key is held to ${api} requests per minute`,
    );
  }
  return warnings;
}
