import { Client } from 'pg';

export interface RefusedWrite {
  table: string;
  event: 'INSERT' | 'UPDATE';
  /** Only rows for which this condition on `NEW` holds (every row when left out). */
  when?: string;
}

/**
 * Makes PostgreSQL refuse these writes with an error whose message and detail quote the whole
 * row, so a test can prove that what a failed statement carried never reaches a log.
 */
export async function refuseWritesQuotingTheRow(
  databaseUrl: string,
  writes: RefusedWrite[],
): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      CREATE FUNCTION log_probe_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'log probe refuses %', NEW USING DETAIL = format('row %s', NEW);
      END $$`);
    for (const [i, write] of writes.entries()) {
      const condition = write.when ? `WHEN (${write.when})` : '';
      await client.query(
        `CREATE TRIGGER log_probe_refuse_${i} BEFORE ${write.event} ON ${write.table}
           FOR EACH ROW ${condition} EXECUTE FUNCTION log_probe_refuse()`,
      );
    }
  } finally {
    await client.end();
  }
}
