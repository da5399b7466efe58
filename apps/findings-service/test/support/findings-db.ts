import { Client } from 'pg';
import { findingSources } from '../../src/modules/findings/finding-sources';
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

/** The product's findings; `sources` as the API shows them (stored + implied entry). */
export function findingsOf(t: TestApp, productId: string): Promise<StoredFinding[]> {
  return withDb(t, async (db) => {
    const res = await db.query(
      `SELECT id, product_id, identity_hash, status, severity, rule_id, file_path, start_line,
              host, port, cve, scanner, sla_days, sources, scanner_version, last_seen_at,
              score, description
         FROM findings WHERE product_id = $1 ORDER BY identity_hash`,
      [productId],
    );
    return (res.rows as (StoredFinding & StoredSourceColumns)[]).map(
      ({ scanner_version, last_seen_at, score, description, ...f }) => ({
        ...f,
        sources: findingSources({
          sources: f.sources,
          scanner: f.scanner,
          scannerVersion: scanner_version,
          lastSeenAt: last_seen_at,
          ruleId: f.rule_id,
          cve: f.cve,
          score,
          description,
        }) as StoredFinding['sources'],
      }),
    );
  });
}

interface StoredSourceColumns {
  scanner_version: string | null;
  last_seen_at: Date;
  score: number | null;
  description: string;
}
