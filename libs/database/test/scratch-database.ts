import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

const adminUrl = process.env.STACK_PG_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres';

export async function withAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** An empty database for one test file; this lib cannot use @platform/testing (cycle). */
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_dblib_${randomBytes(5).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
