// What the findings benches that boot the real API in-process share: a scratch database on the
// local stack, the API's settings for a bench (no rate limits in the way, a local admin), the
// listening address and a local sign-in.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { databaseUrl, stackEnv } from './stack-db';

/** The local administrator every findings bench signs in as. */
export const BENCH_ADMIN = {
  email: 'bench-admin@example.test',
  password: 'bench-admin-password-1',
};

export interface ScratchDatabase {
  /** The database's name; also the bench's queue and rate-limit key prefix. */
  name: string;
  /** The scratch database's URL. */
  url: string;
  /** The stack's Redis. */
  redisUrl: string;
  /** Drops the database (kept with BENCH_KEEP_DB=1, and then named) and closes the admin link. */
  drop(): Promise<void>;
}

/** Creates `<prefix>_<now>` on the local stack (started when STACK_PG_URL is not set). */
export async function scratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const env = stackEnv();
  const name = `${prefix}_${Date.now()}`;
  const admin = new Client({ connectionString: env['STACK_PG_URL'] });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    name,
    url: databaseUrl(env['STACK_PG_URL'], name),
    redisUrl: env['REDIS_URL'],
    async drop() {
      try {
        if (process.env['BENCH_KEEP_DB'] === '1') console.log(`kept database ${name}`);
        else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/**
 * The findings API's environment for a bench on `db`: loopback on free ports, quiet logs,
 * queues and rate-limit keys under the database's name, limits far above what a bench sends,
 * BENCH_ADMIN as the local administrator; `extra` adds or overrides.
 */
export function findingsBenchVars(
  db: ScratchDatabase,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    REDIS_URL: db.redisUrl,
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'error',
    LOG_FILE_SINK_ENABLED: 'false',
    COOKIE_SECURE: 'false',
    RATE_LIMIT_API: '1000000',
    RATE_LIMIT_API_USER: '1000000',
    RATE_LIMIT_API_SERVICE_ACCOUNT: '1000000',
    RATE_LIMIT_AUTH: '1000',
    RATE_LIMIT_KEY_PREFIX: `${db.name}:rl:`,
    QUEUE_PREFIX: db.name,
    LOCAL_ADMIN_EMAIL: BENCH_ADMIN.email,
    LOCAL_ADMIN_PASSWORD: BENCH_ADMIN.password,
    ...extra,
  };
}

/** Listens on a free loopback port (applying the migrations) and answers the base URL. */
export async function listenOnLoopback(app: NestFastifyApplication): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address: unknown = app.getHttpServer().address();
  const port =
    typeof address === 'object' && address !== null ? (address as { port: number }).port : 0;
  return `http://127.0.0.1:${port}`;
}

/** Signs in with a local account and answers the access token. */
export async function localLogin(
  url: string,
  login: string = BENCH_ADMIN.email,
  password: string = BENCH_ADMIN.password,
): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/local/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
  const body = (await res.json()) as { data?: { access_token?: string } };
  const token = body.data?.access_token;
  if (res.status !== 200 || !token) throw new Error(`sign-in of ${login}: ${res.status}`);
  return token;
}

/** A findings API the bench signed in to. */
export interface BenchApi {
  url: string;
  token: string;
}

/** A JSON write (PUT for a membership, POST otherwise) answering the envelope's data. */
export async function apiWrite(
  api: BenchApi,
  path: string,
  body: unknown,
  token = api.token,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${api.url}${path}`, {
    method: path.includes('/members/') ? 'PUT' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** `projects` projects of `perProject` products each, created through the API. */
export async function benchProducts(
  api: BenchApi,
  projects: number,
  perProject: number,
): Promise<{ projectIds: string[]; products: { id: string; projectId: string }[] }> {
  const projectIds: string[] = [];
  const products: { id: string; projectId: string }[] = [];
  for (let p = 0; p < projects; p++) {
    const projectId = String(
      (await apiWrite(api, '/api/v1/projects', { name: `bench-project-${p}` }))['id'],
    );
    projectIds.push(projectId);
    for (let k = 0; k < perProject; k++) {
      const product = await apiWrite(api, `/api/v1/projects/${projectId}/products`, {
        name: `bench-product-${k}`,
      });
      products.push({ id: String(product['id']), projectId });
    }
  }
  return { projectIds, products };
}

/** The p-th percentile of ascending `sorted` (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
