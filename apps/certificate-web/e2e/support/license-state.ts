/**
 * The license's global state for the license screen's tests: a `.lic` file signed with the test
 * vendor key (global-setup.ts), the ledger edited as an attacker with database access would,
 * and the license and seat step saved before and put back after (the files share one service).
 */
import { expect } from '@playwright/test';
import { stackVar } from '@platform/web-ui/e2e';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { webUrl, type Api } from './fixtures';

const LICENSE_TOOL = join(__dirname, '../../../../tools/license/certsvc-license.mjs');

/** The bytes of a `.lic` file for this deployment (the tool prints the file as base64). */
export function signedLicenseFile(
  instanceKey: string,
  maxDevices: number,
  seats: Record<string, number>,
  issuedTo: string,
): Buffer {
  const b64 = execFileSync(
    process.execPath,
    [LICENSE_TOOL, 'sign', '--vendor-key', stackVar('CERT_VENDOR_KEY_FILE')]
      .concat(['--instance-key', instanceKey, '--issued-to', issuedTo])
      .concat(['--max-devices', String(maxDevices)])
      .concat(Object.entries(seats).flatMap(([purpose, n]) => ['--seat', `${purpose}=${n}`])),
    { encoding: 'utf8' },
  ).trim();
  return Buffer.from(b64, 'base64');
}

async function withDatabase<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: stackVar('CERT_DATABASE_URL') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Edits the newest row of the append-only usage ledger (the trigger disabled for it). */
export async function tamperWithLedger(): Promise<void> {
  await withDatabase(async (client) => {
    await client.query('BEGIN');
    await client.query(
      'ALTER TABLE license_ledger DISABLE TRIGGER "TRG_license_ledger_append_only"',
    );
    const edited = await client.query(
      `UPDATE license_ledger SET at = at - interval '1 day'
        WHERE seq = (SELECT max(seq) FROM license_ledger)`,
    );
    expect(edited.rowCount).toBe(1);
    await client.query(
      'ALTER TABLE license_ledger ENABLE TRIGGER "TRG_license_ledger_append_only"',
    );
    await client.query('COMMIT');
  });
}

export interface SavedLicense {
  licenseB64: string | null;
  activatedAt: Date | null;
  step: number;
}

export async function saveLicense(): Promise<SavedLicense> {
  return withDatabase(async (client) => {
    const { rows } = await client.query<{
      license_b64: string | null;
      license_activated_at: Date | null;
      seat_enforcement: number;
    }>(
      'SELECT license_b64, license_activated_at, seat_enforcement FROM license_state WHERE id = 1',
    );
    const row = rows[0];
    return {
      licenseB64: row?.license_b64 ?? null,
      activatedAt: row?.license_activated_at ?? null,
      step: row?.seat_enforcement ?? 1,
    };
  });
}

/**
 * Puts the license back exactly as it was: out of tamper (after a failure half-way), then the
 * stored license file (or none: free mode, which the API cannot return to) and the seat step,
 * written back to the row (the service reads and verifies the row on every use).
 */
export async function restoreLicense(api: Api, saved: SavedLicense): Promise<void> {
  await api.request.post(`${webUrl()}/api/v1/license/reanchor`, {
    headers: api.headers(),
    data: {},
  });
  await withDatabase((client) =>
    client.query(
      `UPDATE license_state SET license_b64 = $1, license_activated_at = $2, seat_enforcement = $3
        WHERE id = 1`,
      [saved.licenseB64, saved.activatedAt, saved.step],
    ),
  );
}
