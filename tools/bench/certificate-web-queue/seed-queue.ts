import type { Client } from 'pg';

/** The queue's shape: the filtered subset the UI approves, the API reference's, the rest. */
export const UI_PURPOSE = 'wifi';
export const API_PURPOSE = 'vpn';
export const FILLER_PURPOSE = 'k8s';

async function columnsOf(db: Client, table: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.rows.map((r) => r.name);
}

/** `SELECT` list copying `template`'s columns, with `overrides` (column -> SQL expression). */
function copyList(columns: string[], overrides: Record<string, string>): string {
  return columns.map((c) => overrides[c] ?? `t."${c}"`).join(', ');
}

/**
 * `total` pending requests of `total` devices, set-based (two INSERT ... SELECT
 * generate_series), each a copy of the template request and device that one real enrollment
 * made (its CSR, agent secret hash, source-auth result...), with its own device id, serial and
 * identity: `subset` of purpose UI_PURPOSE (newest), `subset` of API_PURPOSE, the rest
 * FILLER_PURPOSE, one second apart. The template request is cancelled (not in the queue).
 */
export async function seedPendingQueue(
  db: Client,
  templateRequestId: string,
  total: number,
  subset: number,
): Promise<void> {
  const device = `md5('qbench-device-' || g)::uuid`;
  const serial = `'QB-' || lpad(g::text, 6, '0')`;
  const template = await db.query<{ device_id: string }>(
    `SELECT device_id FROM certificate_requests WHERE id = $1`,
    [templateRequestId],
  );
  const templateDevice = template.rows[0]?.device_id;
  if (!templateDevice) throw new Error('template request not found');
  const deviceColumns = await columnsOf(db, 'devices');
  await db.query(
    `INSERT INTO devices (${deviceColumns.map((c) => `"${c}"`).join(', ')})
     SELECT ${copyList(deviceColumns, {
       id: device,
       serial,
       identity_key: `'sn:' || ${serial}`,
       enrollment_token_hash: `md5('qbench-token-' || g) || md5('qbench-token2-' || g)`,
       hostname: `'host-' || ${serial}`,
       created_at: 'now()',
       updated_at: 'now()',
     })}
       FROM devices t, generate_series(1, $2::int) AS g WHERE t.id = $1`,
    [templateDevice, total],
  );
  const requestColumns = await columnsOf(db, 'certificate_requests');
  await db.query(
    `INSERT INTO certificate_requests (${requestColumns.map((c) => `"${c}"`).join(', ')})
     SELECT ${copyList(requestColumns, {
       id: 'gen_random_uuid()',
       device_id: device,
       purpose: `CASE WHEN g <= $3 THEN '${UI_PURPOSE}' WHEN g <= 2 * $3 THEN '${API_PURPOSE}'
                      ELSE '${FILLER_PURPOSE}' END`,
       status: `'pending'`,
       requested_by: `'device:' || ${serial}`,
       subject_common_name: serial,
       created_at: `now() - g * interval '1 second'`,
       updated_at: 'now()',
     })}
       FROM certificate_requests t, generate_series(1, $2::int) AS g WHERE t.id = $1`,
    [templateRequestId, total, subset],
  );
  await db.query(`UPDATE certificate_requests SET status = 'cancelled' WHERE id = $1`, [
    templateRequestId,
  ]);
  await db.query('VACUUM ANALYZE devices');
  await db.query('VACUUM ANALYZE certificate_requests');
}
