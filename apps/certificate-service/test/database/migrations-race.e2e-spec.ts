import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { freePort, waitFor, WaitAborted } from '@platform/testing';
import { CERTSVC_MIGRATIONS } from '../../src/database/migrations';
import { TEST_JWT_SECRET } from '../support/test-app';

const ROOT = resolve(__dirname, '../../../..');
const ADMIN_URL = process.env.STACK_PG_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres';

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
}

function startApi(databaseUrl: string, port: number): Started {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', 'apps/certificate-service/src/main.ts'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        SWC_NODE_PROJECT: resolve(ROOT, 'tsconfig.base.json'),
        CERTSVC_DATABASE_URL: databaseUrl,
        CERTSVC_PORT: String(port),
        CERTSVC_HOST: '127.0.0.1',
        CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
        CERTSVC_CA_KEY_ENC_KEY: '42'.repeat(32),
        CERTSVC_LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return { child, port, output: () => output };
}

async function waitHealthy(api: Started, timeoutMs: number): Promise<void> {
  await waitFor(
    async () => {
      if (api.child.exitCode !== null) throw new WaitAborted(`process exited: ${api.output()}`);
      const res = await fetch(`http://127.0.0.1:${api.port}/health`).catch(() => undefined);
      const health = res?.ok ? ((await res.json()) as { status: string }).status : res?.status;
      if (health !== 'ok') throw new Error(`health ${health ?? 'not listening'}: ${api.output()}`);
    },
    { timeoutMs, intervalMs: 250, what: `health of port ${api.port}` },
  );
}

async function admin<T>(work: (c: Client) => Promise<T>, url = ADMIN_URL): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('Migrations - two API processes starting on an empty database', () => {
  const name = `t_certsvc_race_${randomBytes(4).toString('hex')}`;
  const url = (() => {
    const u = new URL(ADMIN_URL);
    u.pathname = `/${name}`;
    return u.toString();
  })();
  const apis: Started[] = [];

  beforeAll(() => admin((c) => c.query(`CREATE DATABASE "${name}"`)));
  afterAll(async () => {
    for (const api of apis) api.child.kill('SIGTERM');
    await Promise.all(
      apis.map(
        (a) => new Promise((r) => (a.child.exitCode !== null ? r(null) : a.child.once('exit', r))),
      ),
    );
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });

  it('both come up, each migration is recorded once, and the start line carries the version', async () => {
    apis.push(startApi(url, await freePort()), startApi(url, await freePort()));
    await Promise.all(apis.map((a) => waitHealthy(a, 90_000)));

    const rows = await admin(
      (c) =>
        c.query<{ name: string; n: string }>(
          'SELECT name, count(*) AS n FROM migrations GROUP BY name',
        ),
      url,
    );
    expect(rows.rows.map((r) => [r.name, Number(r.n)]).sort()).toEqual(
      CERTSVC_MIGRATIONS.map((m) => [m.name, 1]).sort(),
    );

    const outputs = apis.map((a) => a.output());
    expect(outputs.filter((o) => /applied \d+ migration\(s\)/.test(o))).toHaveLength(1);
    expect(outputs.filter((o) => o.includes('database schema is up to date'))).toHaveLength(1);
    for (const output of outputs) {
      const start = output
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'starting certificate-service');
      expect(start).toMatchObject({
        level: 'info',
        commit: expect.any(String),
        built_at: expect.any(String),
      });
      expect(String(start?.version)).toMatch(/^\d+\.\d+\.\d{14}\+[0-9a-z]+$/);
    }
  }, 120_000);
});
