import { Client } from 'pg';

/** The triggers that keep the roll-up counts (migration 1795607500000). */
const TRIGGERS = [
  'tr_findings_rollup_insert',
  'tr_findings_rollup_update',
  'tr_findings_rollup_delete',
];

/**
 * A/B switch of the benches that write findings (docs/benchmarks.md, roll-up counts):
 * `BENCH_ROLLUP_TRIGGERS=off` disables the roll-up count triggers on the scratch database once
 * migrated, so that the same bench measures the write paths with and without them. Prints
 * which side runs.
 */
export async function applyRollupTriggerSwitch(databaseUrl: string): Promise<void> {
  const off = process.env['BENCH_ROLLUP_TRIGGERS'] === 'off';
  console.log(`roll-up count triggers: ${off ? 'OFF (BENCH_ROLLUP_TRIGGERS=off)' : 'on'}`);
  if (!off) return;
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const name of TRIGGERS) await client.query(`ALTER TABLE findings DISABLE TRIGGER ${name}`);
  } finally {
    await client.end();
  }
}
