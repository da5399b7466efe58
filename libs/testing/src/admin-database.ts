import { Client } from 'pg';

/** Admin connection of the local stack (STACK_PG_URL from `tools/stack/stack.sh env`). */
export function adminUrl(): string {
  return process.env.STACK_PG_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres';
}

/** The URL of another database on the same server as the admin database. */
export function databaseUrl(database: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export async function withAdminClient<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: adminUrl(), application_name: 'test-admin' });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
