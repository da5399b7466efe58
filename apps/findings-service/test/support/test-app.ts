import type { Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MetricsListener } from '@platform/metrics';
import {
  createTestDatabase,
  testRedisUrl,
  TestDatabase,
  uniqueQueuePrefix,
} from '@platform/testing';
import request from 'supertest';
import { createFindingsApp } from '../../src/api/create-app';
import { FindingsConfig, loadFindingsConfig } from '../../src/app/config/findings-config';
import { findingsDataSourceOptions } from '../../src/database/data-source';
import { ProbeModule } from './probe.module';

export const ADMIN_EMAIL = 'root-admin@example.test';
export const ADMIN_PASSWORD = 'root-admin-password-1';

export interface TestApp {
  app: NestFastifyApplication;
  config: FindingsConfig;
  db: TestDatabase;
  /** Base URL of the API (listening on 127.0.0.1, random port). */
  url: string;
  metricsUrl: string;
  http: () => request.Agent;
  close: () => Promise<void>;
}

/** A fresh database (clone of the migrated template) unless one is passed in. */
export function testDatabase(): Promise<TestDatabase> {
  return createTestDatabase({
    service: 'findings',
    dataSourceOptions: (url) => findingsDataSourceOptions(url),
  });
}

export interface TestAppOptions {
  /** A database another test app of the file already uses (kept when this one closes). */
  db?: TestDatabase;
  /** Modules mounted besides the probe routes. */
  extraModules?: Type<unknown>[];
}

/** Boots the real API against real PostgreSQL and Redis with its own rate-limit and queue prefixes. */
export async function startTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const { db } = options;
  const database = db ?? (await testDatabase());
  const config = loadFindingsConfig(
    {
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: '0',
      LOG_LEVEL: 'error',
      LOG_FILE_SINK_ENABLED: 'false',
      COOKIE_SECURE: 'false',
      RATE_LIMIT_AUTH: '1000',
      RATE_LIMIT_API: '10000',
      RATE_LIMIT_API_USER: '10000',
      RATE_LIMIT_API_SERVICE_ACCOUNT: '10000',
      RATE_LIMIT_KEY_PREFIX: `${uniqueQueuePrefix()}:rl:`,
      // Each app its own queues: a worker of another test file (started with its app's prefix)
      // never takes this file's jobs.
      QUEUE_PREFIX: uniqueQueuePrefix(),
      LOCAL_ADMIN_EMAIL: ADMIN_EMAIL,
      LOCAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...env,
    },
    'api',
  );
  const app = await createFindingsApp(config, {
    extraModules: [ProbeModule, ...(options.extraModules ?? [])],
  }).catch(async (error: unknown) => {
    if (!db) await database.drop();
    throw error;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const metricsUrl = `http://127.0.0.1:${app.get(MetricsListener).port}`;
  return {
    app,
    config,
    db: database,
    url,
    metricsUrl,
    http: () => request.agent(url),
    close: async () => {
      await app.close();
      if (!db) await database.drop();
    },
  };
}
