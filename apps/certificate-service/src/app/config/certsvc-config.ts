import { createHash, randomBytes } from 'node:crypto';
import { TrustedProxies } from '@platform/http';
import { EnvReader } from '@platform/config';
import { readTracingSettings, type TracingSettings } from '@platform/tracing';
import { type CertsvcOidcSettings, readOidcConfig } from './oidc-config';
import { type CertsvcIssuerConfig, readIssuerConfig } from './issuer-config';
import {
  type CertsvcPkiPublicationConfig,
  readPkiPublicationConfig,
} from './pki-publication-config';
import { type CertsvcWebhookConfig, readWebhookConfig } from './webhook-config';
import { type CertsvcLogSnapshotConfig, readLogSnapshotConfig } from './log-snapshot-config';
import { type CertsvcAppAttestConfig, readAppAttestConfig } from './app-attest-config';
import { type CertsvcIdentitySidConfig, readIdentitySidConfig } from './identity-sid-config';
import { type CertsvcTpmConfig, readTpmConfig } from './tpm-config';
import { LOG_LEVELS, type LogLevel } from '@platform/logging';
import {
  type Lifetime,
  parseKeyEncryptionKey,
  parseLifetime,
  PURPOSE_PROFILES,
  lifetimeProblem,
} from '@platform/pki';

export type ContentTypeEnforcement = 'observe' | 'reject';

export interface CertsvcFeatureFlags {
  ssh: boolean;
  k8s: boolean;
  scep: boolean;
  webhooks: boolean;
}

/** The certificate service's settings, read and validated once at boot. */
export interface CertsvcConfig {
  port: number;
  host: string;
  databaseUrl: string;
  /**
   * Redis of the shared rate-limit counters (`CERTSVC_REDIS_URL`). Unset: each API process
   * counts alone (development); N replicas would allow N times each limit.
   */
  redisUrl: string | undefined;
  logLevel: LogLevel;
  devMode: boolean;
  jwt: {
    secret: string;
    /** True when no secret was configured and a per-process one was generated (dev mode). */
    generated: boolean;
    accessTokenTtlSeconds: number;
  };
  refreshTokenTtlDays: number;
  localAuth: {
    enabled: boolean;
    adminEmail: string | undefined;
    adminPassword: string | undefined;
  };
  /** Single sign-on through an OpenID provider (`CERTSVC_OIDC_*`); undefined when off. */
  oidc: CertsvcOidcSettings | undefined;
  /** Requests allowed per minute, by bucket (`CERTSVC_*_RATE_LIMIT_PER_MINUTE`). */
  rateLimits: {
    /** Login attempts per client address. */
    auth: number;
    /** Calls to `/enroll*` (and license attest) per client address. */
    enroll: number;
    /** Agent calls per request id. */
    agent: number;
    /** Key-holder API calls per client address. */
    keyholder: number;
  };
  /** Redis key prefix of the rate-limit counters (`CERTSVC_RATE_LIMIT_KEY_PREFIX`). */
  rateLimitKeyPrefix: string;
  enroll: {
    /** Lifetime of enroll and source nonces. */
    nonceTtlSeconds: number;
  };
  trustedProxies: string[];
  migrationLockWaitSeconds: number;
  contentTypeEnforcement: ContentTypeEnforcement;
  features: CertsvcFeatureFlags;
  /** Kubernetes credential broker (docs/certificate-service/kubernetes.md). */
  k8s: CertsvcK8sConfig;
  pki: {
    /** 32-byte key sealing the built-in CA private keys (`CERTSVC_CA_KEY_ENC_KEY`); never logged. */
    caKeyEncryptionKey: Buffer;
    /** True when dev mode derived the key (no `CERTSVC_CA_KEY_ENC_KEY`). */
    caKeyDerived: boolean;
    /** `wifi` certificate lifetime (`CERTSVC_WIFI_LIFETIME`, default 3 calendar years). */
    wifiLifetime: Lifetime;
  };
  license: {
    /** Device slots without an uploaded license (`CERTSVC_DEFAULT_MAX_DEVICES`). */
    defaultMaxDevices: number;
    /**
     * Vendor Ed25519 public key (raw 32 bytes, base64) that signs licenses
     * (`CERTSVC_LICENSE_VENDOR_PUBLIC_KEY`); without it no license can be activated.
     */
    vendorPublicKey: string | undefined;
  };
  /** Trace export and sampling (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_TRACES_SAMPLER_ARG). */
  tracing: TracingSettings;
  /** Issuer profiles: default kind, profile secret key, reload, egress (`CERTSVC_ISSUER*`). */
  issuers: CertsvcIssuerConfig;
  /** CRL and CA certificate URLs in issued certificates (`CERTSVC_PKI_BASE_URL`). */
  pkiPublication: CertsvcPkiPublicationConfig;
  /** Outgoing webhooks (`CERTSVC_WEBHOOK*`, docs/certificate-service/webhooks.md). */
  webhooks: CertsvcWebhookConfig;
  /** `CERTSVC_SCEP_POLL_SECONDS` (30): the worker's SCEP poller period (docs/certificate-service/scep.md). */
  scepPollSeconds: number;
  /** Agent log snapshots (`CERTSVC_LOG_SNAPSHOT_*`, docs/certificate-service/log-snapshots.md). */
  logSnapshots: CertsvcLogSnapshotConfig;
  /** App Attest receipts (`CERTSVC_APP_ATTEST_*`, docs/certificate-service/app-attest.md). */
  appAttest: CertsvcAppAttestConfig;
  /** Identity SID look-ups (`CERTSVC_IDENTITY_*`, docs/certificate-service/identity-sid.md). */
  identitySid: CertsvcIdentitySidConfig;
  /** Hardware-key policy of enrollment (`TPM_*`, docs/certificate-service/tpm-attestation.md). */
  tpm: CertsvcTpmConfig;
  /**
   * `CERTSVC_IMAGE_TAG`: the release tag the server and web UI images carry; reported by
   * `GET /api/v1/version` so the UI can tell a mismatch. Null when not set (a source build).
   */
  imageTag: string | null;
}

export const CERTSVC_CONFIG = Symbol('CERTSVC_CONFIG');

const MIN_JWT_SECRET_LENGTH = 32;

/** Reads the environment once; throws `ConfigError` listing every problem. */
export function loadCertsvcConfig(
  env: Record<string, string | undefined> = process.env,
): CertsvcConfig {
  const r = new EnvReader(env);
  const devMode = r.bool('CERTSVC_DEV_MODE', false);
  const configuredSecret = r.optionalString('CERTSVC_JWT_SECRET');
  if (configuredSecret === undefined && !devMode) {
    r.problem('CERTSVC_JWT_SECRET is required unless CERTSVC_DEV_MODE=true');
  }
  if (configuredSecret !== undefined && configuredSecret.length < MIN_JWT_SECRET_LENGTH) {
    r.problem(`CERTSVC_JWT_SECRET must be at least ${MIN_JWT_SECRET_LENGTH} characters`);
  }
  const localEnabled = r.bool('CERTSVC_LOCAL_AUTH_ENABLED', true);
  const adminEmail = r.optionalString('CERTSVC_LOCAL_ADMIN_EMAIL')?.toLowerCase();
  const adminPassword = r.optionalString('CERTSVC_LOCAL_ADMIN_PASSWORD');
  if ((adminEmail === undefined) !== (adminPassword === undefined)) {
    r.problem('CERTSVC_LOCAL_ADMIN_EMAIL and CERTSVC_LOCAL_ADMIN_PASSWORD must be set together');
  }
  if (adminPassword !== undefined && adminPassword.length < 8) {
    r.problem('CERTSVC_LOCAL_ADMIN_PASSWORD must be at least 8 characters');
  }
  const caKey = caKeyEncryptionKey(r, devMode);
  const trustedProxies = r.list('CERTSVC_TRUSTED_PROXIES');
  try {
    new TrustedProxies(trustedProxies);
  } catch (error) {
    r.problem(`CERTSVC_TRUSTED_PROXIES: ${(error as Error).message}`);
  }
  const config: CertsvcConfig = {
    port: r.int('CERTSVC_PORT', 8080, { min: 0, max: 65535 }),
    host: r.string('CERTSVC_HOST', '0.0.0.0'),
    databaseUrl: r.requiredString('CERTSVC_DATABASE_URL'),
    redisUrl: r.optionalString('CERTSVC_REDIS_URL'),
    logLevel: r.oneOf('CERTSVC_LOG_LEVEL', LOG_LEVELS, 'info'),
    devMode,
    jwt: {
      secret: configuredSecret ?? randomBytes(48).toString('base64url'),
      generated: configuredSecret === undefined,
      accessTokenTtlSeconds: r.int('CERTSVC_ACCESS_TOKEN_TTL_SECONDS', 900, {
        min: 60,
        max: 86_400,
      }),
    },
    refreshTokenTtlDays: r.int('CERTSVC_REFRESH_TOKEN_TTL_DAYS', 14, { min: 1, max: 365 }),
    localAuth: { enabled: localEnabled, adminEmail, adminPassword },
    oidc: readOidcConfig(r),
    rateLimits: {
      auth: r.int('CERTSVC_LOGIN_RATE_LIMIT_PER_MINUTE', 10, { min: 1 }),
      enroll: r.int('CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE', 60, { min: 1 }),
      agent: r.int('CERTSVC_AGENT_RATE_LIMIT_PER_MINUTE', 120, { min: 1 }),
      keyholder: r.int('CERTSVC_KEYHOLDER_RATE_LIMIT_PER_MINUTE', 600, { min: 1 }),
    },
    rateLimitKeyPrefix: r.string('CERTSVC_RATE_LIMIT_KEY_PREFIX', 'certsvc:rl:'),
    enroll: {
      nonceTtlSeconds: r.int('CERTSVC_ENROLL_NONCE_TTL_SECONDS', 300, { min: 10, max: 3600 }),
    },
    trustedProxies,
    migrationLockWaitSeconds: r.int('MIGRATION_LOCK_WAIT_SECONDS', 180, { min: 0 }),
    contentTypeEnforcement: r.oneOf(
      'CERTSVC_CONTENT_TYPE_ENFORCEMENT',
      ['observe', 'reject'] as const,
      'reject',
    ),
    k8s: readK8sConfig(r),
    features: {
      ssh: r.bool('CERTSVC_FEATURES_SSH', true),
      k8s: r.bool('CERTSVC_FEATURES_K8S', false),
      scep: r.bool('CERTSVC_FEATURES_SCEP', false),
      webhooks: r.bool('CERTSVC_WEBHOOKS_ENABLED', false),
    },
    pki: {
      caKeyEncryptionKey: caKey.key,
      caKeyDerived: caKey.derived,
      wifiLifetime: wifiLifetime(r),
    },
    license: {
      defaultMaxDevices: r.int('CERTSVC_DEFAULT_MAX_DEVICES', 50, { min: 1, max: 1_000_000 }),
      vendorPublicKey: licenseVendorPublicKey(r),
    },
    tracing: readTracingSettings(r),
    issuers: readIssuerConfig(r, devMode),
    pkiPublication: readPkiPublicationConfig(r),
    webhooks: readWebhookConfig(r, devMode),
    scepPollSeconds: r.int('CERTSVC_SCEP_POLL_SECONDS', 30, { min: 1, max: 86_400 }),
    logSnapshots: readLogSnapshotConfig(r),
    appAttest: readAppAttestConfig(r),
    identitySid: readIdentitySidConfig(r),
    tpm: readTpmConfig(r),
    imageTag: readImageTag(r),
  };
  r.done();
  return config;
}

/**
 * `CERTSVC_CA_KEY_ENC_KEY` (32 bytes, hex or base64). Dev mode without it derives a fixed,
 * publicly known key so a dev database keeps working across restarts; never for production.
 */
function caKeyEncryptionKey(r: EnvReader, devMode: boolean): { key: Buffer; derived: boolean } {
  const configured = r.optionalString('CERTSVC_CA_KEY_ENC_KEY');
  if (configured === undefined) {
    if (!devMode) r.problem('CERTSVC_CA_KEY_ENC_KEY is required unless CERTSVC_DEV_MODE=true');
    return {
      key: createHash('sha256').update('certsvc dev-mode CA key-encryption key v1').digest(),
      derived: true,
    };
  }
  try {
    return { key: parseKeyEncryptionKey(configured), derived: false };
  } catch {
    r.problem('CERTSVC_CA_KEY_ENC_KEY must be 32 bytes, hex or base64');
    return { key: Buffer.alloc(32), derived: false };
  }
}

/** `CERTSVC_WIFI_LIFETIME`: `3y` (default), `18mo`, `400d` or `36h`; at most 10 years. */
function wifiLifetime(r: EnvReader): Lifetime {
  if (r.optionalString('CERTSVC_WIFI_LIFETIME_DAYS') !== undefined) {
    r.problem('CERTSVC_WIFI_LIFETIME_DAYS is replaced by CERTSVC_WIFI_LIFETIME (e.g. 3y, 1095d)');
  }
  const text = r.optionalString('CERTSVC_WIFI_LIFETIME');
  if (text === undefined) return PURPOSE_PROFILES.wifi.defaultLifetime;
  const lifetime = parseLifetime(text);
  if (lifetime && !lifetimeProblem(lifetime)) return lifetime;
  r.problem(
    `CERTSVC_WIFI_LIFETIME must be like 3y, 18mo, 400d or 36h and at most 10 years, got "${text}"`,
  );
  return PURPOSE_PROFILES.wifi.defaultLifetime;
}

/** `CERTSVC_LICENSE_VENDOR_PUBLIC_KEY`: a raw 32-byte Ed25519 public key, base64. */
function licenseVendorPublicKey(r: EnvReader): string | undefined {
  const value = r.optionalString('CERTSVC_LICENSE_VENDOR_PUBLIC_KEY');
  if (value !== undefined && Buffer.from(value, 'base64').toString('base64') !== value) {
    r.problem('CERTSVC_LICENSE_VENDOR_PUBLIC_KEY must be base64');
  } else if (value !== undefined && Buffer.from(value, 'base64').length !== 32) {
    r.problem('CERTSVC_LICENSE_VENDOR_PUBLIC_KEY must be a raw Ed25519 public key (32 bytes)');
  }
  return value;
}

export const K8S_PROMPT_STEPS = ['off', 'ask_once_per_window', 'ask_every_time', 'raised'] as const;
export type K8sPromptStep = (typeof K8S_PROMPT_STEPS)[number];

export interface CertsvcK8sConfig {
  /**
   * `CERTSVC_K8S_BROKER_URL` (`https://host:port`): the API process also listens there with
   * mutual TLS for `POST /api/v1/k8s/credential`. Unset: no broker.
   */
  broker?: { host: string; port: number; url: string; tlsCertFile: string; tlsKeyFile: string };
  /** `CERTSVC_K8S_PROMPT_STEP`: prompt-on-issuance step (default `ask_once_per_window`). */
  promptStep: K8sPromptStep;
}

function readK8sConfig(r: EnvReader): CertsvcK8sConfig {
  const promptStep = r.oneOf('CERTSVC_K8S_PROMPT_STEP', K8S_PROMPT_STEPS, 'ask_once_per_window');
  const text = r.optionalString('CERTSVC_K8S_BROKER_URL');
  if (text === undefined) return { promptStep };
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== 'https:' || url.pathname !== '/' || url.search || url.username) {
    r.problem('CERTSVC_K8S_BROKER_URL must be https://<host>:<port> (no path)');
    return { promptStep };
  }
  const tlsCertFile = r.optionalString('CERTSVC_K8S_BROKER_TLS_CERT_FILE');
  const tlsKeyFile = r.optionalString('CERTSVC_K8S_BROKER_TLS_KEY_FILE');
  if (tlsCertFile === undefined || tlsKeyFile === undefined) {
    r.problem(
      'CERTSVC_K8S_BROKER_URL needs CERTSVC_K8S_BROKER_TLS_CERT_FILE and CERTSVC_K8S_BROKER_TLS_KEY_FILE',
    );
    return { promptStep };
  }
  return {
    promptStep,
    broker: {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port === '' ? 443 : Number(url.port),
      url: url.origin,
      tlsCertFile,
      tlsKeyFile,
    },
  };
}

/** A container tag: 1-128 of letters, digits, `.`, `_`, `+`, `-`, starting with a letter or digit. */
function readImageTag(r: EnvReader): string | null {
  const tag = r.string('CERTSVC_IMAGE_TAG', '');
  if (tag === '') return null;
  if (!/^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/.test(tag)) {
    r.problem('CERTSVC_IMAGE_TAG must be an image tag (letters, digits, . _ + -; at most 128)');
  }
  return tag;
}
