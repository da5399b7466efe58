import type { ModuleMetadata } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ProcessLogger } from '@platform/logging';
import request from 'supertest';
import {
  createTestDatabase,
  testRedisUrl,
  uniqueQueuePrefix,
  type TestDatabase,
} from '@platform/testing';
import { createCertificateApp } from '../../src/api/create-app';
import { loadCertsvcConfig, type CertsvcConfig } from '../../src/app/config/certsvc-config';
import { certificateDataSourceOptions } from '../../src/database/data-source';
import { createCertsvcLogger } from '../../src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../src/app/metrics/certsvc-metrics';
import { LogCapture } from './log-capture';

export const ADMIN_EMAIL = 'admin@certsvc.test';
export const ADMIN_PASSWORD = 'admin-password-1234';
export const TEST_JWT_SECRET = 'test-secret-for-certificate-service-0123456789';
export const TEST_CA_KEY_ENC_KEY = '42'.repeat(32);

export interface TestApp {
  app: NestFastifyApplication;
  http: ReturnType<typeof request>;
  logs: LogCapture;
  /** The process logger the app writes through (its lines go to `logs`). */
  logger: ProcessLogger;
  metrics: CertsvcMetrics;
  config: CertsvcConfig;
  db: TestDatabase;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra or replaced environment variables. */
  env?: Record<string, string | undefined>;
  /** Skip the local admin bootstrap (first-user tests need an empty roles table). */
  withoutLocalAdmin?: boolean;
  extraImports?: ModuleMetadata['imports'];
  /**
   * Start on this (already migrated) database instead of a fresh one, and leave it in place on
   * close: a restart of the service on the same data. The app that made it drops it.
   */
  database?: TestDatabase;
}

export function testDatabase(): Promise<TestDatabase> {
  return createTestDatabase({
    service: 'certificate',
    dataSourceOptions: (url) => certificateDataSourceOptions(url),
  });
}

/** The real app on a fresh migrated database, with its log lines captured. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.database ?? (await testDatabase());
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: db.url,
    CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
    CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
    CERTSVC_LOG_LEVEL: 'debug',
    CERTSVC_LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    // Shared counters in the stack's Redis, under a prefix of this app's own.
    CERTSVC_REDIS_URL: testRedisUrl(),
    CERTSVC_RATE_LIMIT_KEY_PREFIX: `${uniqueQueuePrefix()}:rl:`,
    ...(options.withoutLocalAdmin
      ? {}
      : { CERTSVC_LOCAL_ADMIN_EMAIL: ADMIN_EMAIL, CERTSVC_LOCAL_ADMIN_PASSWORD: ADMIN_PASSWORD }),
    ...options.env,
  });
  const logs = new LogCapture();
  const logger = createCertsvcLogger(config, logs);
  const metrics = new CertsvcMetrics({ processMetrics: false });
  const app = await createCertificateApp(
    { config, logger, metrics },
    { extraImports: options.extraImports },
  ).catch(async (error: unknown) => {
    if (!options.database) await db.drop();
    throw error;
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    http: request(app.getHttpServer()),
    logs,
    logger,
    metrics,
    config,
    db,
    close: async () => {
      await app.close();
      if (!options.database) await db.drop();
    },
  };
}
