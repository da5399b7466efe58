import { Client } from 'pg';

/** The local stack's PostgreSQL URL (`eval "$(bash tools/stack/stack.sh env)"` sets it). */
export function stackUrl(): string {
  const url = process.env['STACK_PG_URL'];
  if (!url) throw new Error('STACK_PG_URL not set: eval "$(bash tools/stack/stack.sh env)"');
  return url;
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
