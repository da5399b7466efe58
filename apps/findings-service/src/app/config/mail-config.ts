import type { EnvReader } from '@platform/config';
import { readFileSync } from 'node:fs';

/** The service's SMTP sender (docs/findings-service/mail.md). */
export interface MailConfig {
  /** SMTP_CA_FILE: extra trusted CA certificates (PEM) for mail servers, besides the system's. */
  caPem: string | null;
  /** SMTP_POOL_CONNECTIONS (default 5): pooled connections per mail server and account. */
  poolConnections: number;
  /** SMTP_POOL_IDLE_SECONDS (default 300): a pool unused this long is closed. */
  poolIdleSeconds: number;
  /** SMTP_TIMEOUT_MS (default 10000): connect, greeting and each command. */
  timeoutMs: number;
}

export function readMailConfig(r: EnvReader): MailConfig {
  const caFile = r.optionalString('SMTP_CA_FILE');
  let caPem: string | null = null;
  if (caFile !== undefined && caFile !== '') {
    try {
      caPem = readFileSync(caFile, 'utf8');
      if (!caPem.includes('-----BEGIN CERTIFICATE-----')) {
        r.problem(`SMTP_CA_FILE ${caFile} holds no PEM certificate`);
      }
    } catch {
      r.problem(`SMTP_CA_FILE ${caFile} cannot be read`);
    }
  }
  return {
    caPem,
    poolConnections: r.int('SMTP_POOL_CONNECTIONS', 5, { min: 1, max: 100 }),
    poolIdleSeconds: r.int('SMTP_POOL_IDLE_SECONDS', 300, { min: 1, max: 86_400 }),
    timeoutMs: r.int('SMTP_TIMEOUT_MS', 10_000, { min: 100, max: 300_000 }),
  };
}
