import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';

const ROOT = join(__dirname, '../../..');

/**
 * The local stack's settings (`STACK_PG_URL`, `REDIS_URL`, ...): from the environment when
 * set, otherwise the stack is started (`tools/stack/stack.sh up`) and its `env` read.
 */
export function stackEnv(): Record<string, string> {
  if (process.env['STACK_PG_URL'] && process.env['REDIS_URL']) {
    return { STACK_PG_URL: process.env['STACK_PG_URL'], REDIS_URL: process.env['REDIS_URL'] };
  }
  execFileSync('bash', ['tools/stack/stack.sh', 'up'], { cwd: ROOT, stdio: 'inherit' });
  const out = execFileSync('bash', ['tools/stack/stack.sh', 'env'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return Object.fromEntries(
    [...out.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2].replace(/^'|'$/g, '')]),
  );
}

/** The local stack's PostgreSQL URL (`eval "$(bash tools/stack/stack.sh env)"` sets it). */
export function stackUrl(): string {
  const url = process.env['STACK_PG_URL'];
  if (!url) throw new Error('STACK_PG_URL not set: eval "$(bash tools/stack/stack.sh env)"');
  return url;
}

/**
 * The stack's URL with another database: the path only, so a socket given as `?host=<dir>`
 * (STACK_PG_VIA_SOCKET=1) stays as it is.
 */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One statement on the stack's maintenance database (CREATE/DROP DATABASE of a bench). */
export async function adminQuery(sql: string): Promise<void> {
  const admin = new Client({ connectionString: stackUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
