import { Client } from 'pg';
import type { TestApp } from './test-app';

export interface StoredFinding {
  id: string;
  product_id: string;
  identity_hash: string;
  status: string;
  severity: string;
  rule_id: string;
  file_path: string | null;
  start_line: number | null;
  host: string | null;
  port: number | null;
  cve: string | null;
  scanner: string;
  sla_days: number | null;
  sources: Record<string, { scanner: string }>;
}

/** Direct reads of the findings table (the findings API is another module's). */
export async function withDb<T>(t: TestApp, work: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: t.config.databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

export function findingsOf(t: TestApp, productId: string): Promise<StoredFinding[]> {
  return withDb(t, async (db) => {
    const res = await db.query(
      `SELECT id, product_id, identity_hash, status, severity, rule_id, file_path, start_line,
              host, port, cve, scanner, sla_days, sources
         FROM findings WHERE product_id = $1 ORDER BY identity_hash`,
      [productId],
    );
    return res.rows as StoredFinding[];
  });
}
