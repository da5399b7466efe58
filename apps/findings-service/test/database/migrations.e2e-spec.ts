import { detectSchemaDrift } from '@platform/database';
import { freePort, testRedisUrl, waitFor, WaitAborted } from '@platform/testing';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { findingsDataSourceOptions } from '../../src/database/data-source';
import { FINDINGS_MIGRATIONS } from '../../src/database/migrations';
import { testDatabase } from '../support/test-app';

const ROOT = join(__dirname, '../../../..');
const ADMIN_URL = process.env.STACK_PG_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres';

function dbUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(work: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

interface Proc {
  child: ChildProcess;
  output: () => string;
  port: number;
}

function startApi(databaseUrl: string, port: number, metricsPort: number): Proc {
  let output = '';
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', 'apps/findings-service/src/main.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: 'tsconfig.base.json',
        DATABASE_URL: databaseUrl,
        REDIS_URL: testRedisUrl(),
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        HOST: '127.0.0.1',
        APP_ENV: 'production',
        JWT_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'info',
        LOG_FILE_SINK_ENABLED: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return { child, output: () => output, port };
}

async function waitHealthy(p: Proc, timeoutMs: number): Promise<void> {
  await waitFor(
    async () => {
      if (p.child.exitCode !== null) {
        throw new WaitAborted(`process exited ${p.child.exitCode}:\n${p.output()}`);
      }
      const res = await fetch(`http://127.0.0.1:${p.port}/health`).catch(() => undefined);
      const health = res?.ok ? ((await res.json()) as { status: string }).status : res?.status;
      if (health !== 'ok') throw new Error(`health ${health ?? 'not listening'}:\n${p.output()}`);
    },
    { timeoutMs, intervalMs: 200, what: `health of port ${p.port}` },
  );
}

/** Sends SIGTERM; true when the process shut down cleanly (exit 0, or Nest re-raising SIGTERM). */
function stop(p: Proc): Promise<boolean> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) {
    return Promise.resolve(p.child.exitCode === 0 || p.child.signalCode === 'SIGTERM');
  }
  return new Promise((resolve) => {
    p.child.once('exit', (code, signal) => resolve(code === 0 || signal === 'SIGTERM'));
    p.child.kill('SIGTERM');
  });
}

describe('Migrations - schema drift and concurrent start', () => {
  it('finds no drift between entities and migrations on a migrated database', async () => {
    const db = await testDatabase();
    const ds = new DataSource(findingsDataSourceOptions(db.url));
    await ds.initialize();
    try {
      expect(await detectSchemaDrift(ds)).toEqual([]);
    } finally {
      await ds.destroy();
      await db.drop();
    }
  });

  it('two API processes racing on an empty database: one migrates, both serve, each migration once', async () => {
    const name = `t_findings_race_${randomBytes(5).toString('hex')}`;
    await admin((c) => c.query(`CREATE DATABASE "${name}"`));
    const procs: Proc[] = [];
    try {
      for (let i = 0; i < 2; i++)
        procs.push(startApi(dbUrl(name), await freePort(), await freePort()));
      await Promise.all(procs.map((p) => waitHealthy(p, 90_000)));
      const client = new Client({ connectionString: dbUrl(name) });
      await client.connect();
      const { rows } = await client.query<{ name: string; n: string }>(
        'SELECT name, count(*) AS n FROM migrations GROUP BY name',
      );
      await client.end();
      expect(rows.map((r) => r.name).sort()).toEqual(FINDINGS_MIGRATIONS.map((m) => m.name).sort());
      expect(rows.every((r) => r.n === '1')).toBe(true);
      const appliedBy = procs.filter((p) => /applied \d+ migration\(s\)/.test(p.output()));
      expect(appliedBy).toHaveLength(1);
      const exits = await Promise.all(procs.map(stop));
      expect(exits).toEqual([true, true]);
    } finally {
      await Promise.all(procs.map(stop));
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }, 150_000);
});
