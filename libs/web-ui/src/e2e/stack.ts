import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { REPOSITORY_ROOT } from './processes';

/** The project's stack (tools/stack/stack.sh, started by tools/test.sh): PostgreSQL and Redis. */
export function stackEnv(): { pgUrl: string; redisUrl: string } {
  let pgUrl = process.env.STACK_PG_URL;
  let redisUrl = process.env.REDIS_URL;
  if (!pgUrl || !redisUrl) {
    const out = execFileSync('bash', ['tools/stack/stack.sh', 'env'], {
      cwd: REPOSITORY_ROOT,
      encoding: 'utf8',
    });
    pgUrl ??= /STACK_PG_URL=(\S+)/.exec(out)?.[1];
    redisUrl ??= /REDIS_URL=(\S+)/.exec(out)?.[1];
  }
  if (!pgUrl || !redisUrl)
    throw new Error('the local stack is not running (tools/stack/stack.sh up)');
  return { pgUrl, redisUrl };
}

/** One statement batch on the stack's PostgreSQL as its administrator (create/drop databases). */
export async function adminSql<T>(pgUrl: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: pgUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A variable of this Playwright worker's own platform (an app's global set-up starts one per
 * worker): `<name>__<parallel index>`, which Playwright sets as TEST_PARALLEL_INDEX in each
 * worker; the plain name outside a worker.
 */
export function stackVar(name: string): string {
  const index = process.env.TEST_PARALLEL_INDEX ?? '0';
  const value = process.env[`${name}__${index}`] ?? process.env[name];
  if (!value) throw new Error(`${name} is not set (global setup did not run)`);
  return value;
}

/** Publishes each platform's variables as `<name>__<index>` (the first also as `<name>`). */
export function publishPlatforms(platforms: { env: Record<string, string> }[]): void {
  platforms.forEach((platform, index) => {
    for (const [name, value] of Object.entries(platform.env)) {
      process.env[`${name}__${index}`] = value;
      if (index === 0) process.env[name] = value;
    }
  });
}
