import { verify } from 'node:crypto';
import { enrollDevice, enrollDevices, sql, startEnrollApp } from '../fixtures/enroll';
import { approve, approveRows } from '../fixtures/issue';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { ed25519PublicKey } from '../../src/modules/license/license-file';
import { checkpointMessage } from '../../src/modules/license/license-ledger';

/** Edits the append-only ledger as an attacker with database access would. */
async function tamper(t: TestApp, statement: string, params: unknown[]): Promise<void> {
  await sql(t, `ALTER TABLE license_ledger DISABLE TRIGGER "TRG_license_ledger_append_only"`);
  try {
    await sql(t, statement, params);
  } finally {
    await sql(t, `ALTER TABLE license_ledger ENABLE TRIGGER "TRG_license_ledger_append_only"`);
  }
}

describe('License - ledger integrity, tamper and /api/v1/license/reanchor (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const status = async () =>
    (
      await t.http
        .get('/api/v1/license/status')
        .set(...bearer(admin.accessToken))
        .expect(200)
    ).body as Record<string, unknown>;
  const reanchor = async () =>
    (
      await t.http
        .post('/api/v1/license/reanchor')
        .set(...bearer(admin.accessToken))
        .expect(200)
    ).body as Record<string, unknown>;
  const identityOf = async (serial: string) =>
    (
      await sql<{ k: string }>(t, `SELECT identity_key AS k FROM devices WHERE serial = $1`, [
        serial,
      ])
    )[0].k;
  const licenseAudit = () =>
    sql<{ action: string }>(
      t,
      `SELECT action FROM audit_log WHERE action LIKE 'license.%' ORDER BY at`,
    );

  it('signs a checkpoint of every ledger append with the published instance key', async () => {
    const [d] = await enrollDevices(t, 1);
    const [row] = await approveRows(t, admin.accessToken, [d.requestId]);
    expect(row.status).toBe('issued');
    const key = ed25519PublicKey((await status()).deployment_instance_key as string);
    const checkpoints = await sql<{
      seq: string;
      hash: string;
      slot_count: number;
      anchor: boolean;
      prefix_digest: string | null;
      at: Date;
      signature: string;
    }>(
      t,
      `SELECT seq, hash, slot_count, anchor, prefix_digest, at, signature FROM license_checkpoints`,
    );
    const [head] = await sql<{ seq: string; hash: string }>(
      t,
      `SELECT seq, hash FROM license_ledger ORDER BY seq DESC LIMIT 1`,
    );
    expect(checkpoints).toHaveLength(1);
    const cp = checkpoints[0];
    expect(cp).toMatchObject({ seq: head.seq, hash: head.hash, slot_count: 1, anchor: false });
    const message = checkpointMessage({
      seq: BigInt(cp.seq),
      hash: cp.hash,
      slotCount: cp.slot_count,
      anchor: cp.anchor,
      prefixDigest: cp.prefix_digest,
      at: cp.at,
    });
    expect(verify(null, message, key!, Buffer.from(cp.signature, 'base64'))).toBe(true);
    const forged = checkpointMessage({
      seq: BigInt(cp.seq),
      hash: cp.hash,
      slotCount: 2,
      anchor: cp.anchor,
      prefixDigest: cp.prefix_digest,
      at: cp.at,
    });
    expect(verify(null, forged, key!, Buffer.from(cp.signature, 'base64'))).toBe(false);
  });

  describe('with devices counted', () => {
    // d[0] was counted above (the first test); four more here.
    const devices: Awaited<ReturnType<typeof enrollDevices>> = [];
    const serials: string[] = [];
    beforeAll(async () => {
      devices.push(...(await enrollDevices(t, 4)));
      const rows = await approveRows(
        t,
        admin.accessToken,
        devices.map((d) => d.requestId),
      );
      expect(rows.map((r) => r.status)).toEqual(['issued', 'issued', 'issued', 'issued']);
      serials.push(...rows.map((r) => r.serial!));
      // Devices 2 and 3 lose their certificate: their slots stay (a revoke frees nothing).
      for (const serial of serials.slice(2)) {
        await t.http
          .post(`/api/v1/certificates/${serial}/revoke`)
          .set(...bearer(admin.accessToken))
          .send({ reason: 'keyCompromise' })
          .expect(200);
      }
      expect(await status()).toMatchObject({ active_count: 5, tamper: false });
    });

    it('an edited ledger row puts the service into tamper: new devices refused, renewals go through', async () => {
      const key = await identityOf(devices[1].serial);
      await tamper(
        t,
        `UPDATE license_ledger SET at = at - interval '1 day' WHERE identity_key = $1`,
        [key],
      );
      const [fresh, another] = await enrollDevices(t, 2);
      const single = await approve(t, admin.accessToken, [fresh.requestId]).expect(402);
      expect(single.body).toMatchObject({ code: 'license_tamper' });
      expect(await status()).toMatchObject({
        tamper: true,
        tamper_reason: expect.stringMatching(/ledger row \d+ breaks the hash chain/),
        active_count: 5,
      });
      const renewal = await enrollDevice(t, {
        serial: devices[0].serial,
        extra: { enrollment_token: devices[0].enrollmentToken },
      });
      const rows = await approveRows(t, admin.accessToken, [another.requestId, renewal.requestId]);
      expect(rows.map((r) => (r.status === 'error' ? r.error : r.status))).toEqual([
        'license_tamper',
        'issued',
      ]);
      // Facts go to the server log, not to the audit log.
      expect(
        t.logs
          .lines()
          .some(
            (l) =>
              String(l.msg).includes('failed its integrity check') &&
              l.check === 'before a counted issuance' &&
              /breaks the hash chain/.test(String(l.reason)),
          ),
      ).toBe(true);
      expect(await licenseAudit()).toEqual([]);
    });

    it('reanchor restores the ledger with the count of the last signed checkpoint', async () => {
      const body = await reanchor();
      // (a) 5 surviving identities, (b) 3 devices with live certificates, (c) checkpoint 5.
      expect(body).toEqual({
        active_count: 5,
        recount: 5,
        devices_with_certificates: 3,
        checkpoint_count: 5,
        placeholders: 0,
      });
      expect(await status()).toMatchObject({ tamper: false, tamper_reason: '', active_count: 5 });
      expect(await licenseAudit()).toEqual([{ action: 'license.reanchor' }]);
      const [fresh] = await enrollDevices(t, 1);
      const [row] = await approveRows(t, admin.accessToken, [fresh.requestId]);
      expect(row.status).toBe('issued');
      expect(await status()).toMatchObject({ active_count: 6, tamper: false });
    });

    it('fills slots of deleted ledger records with placeholders up to the checkpoint count', async () => {
      // Delete the count records of devices[1..3] (before the anchor): 3 survive (the first
      // test's device, devices[0], the device counted after re-anchoring); devices with live
      // certificates: 4 (devices[2] and [3] were revoked); last checkpoint: 6.
      const keys = await Promise.all(devices.map((d) => identityOf(d.serial)));
      await tamper(t, `DELETE FROM license_ledger WHERE identity_key = ANY($1::varchar[])`, [
        keys.slice(1),
      ]);
      const [fresh] = await enrollDevices(t, 1);
      const refused = await approve(t, admin.accessToken, [fresh.requestId]).expect(402);
      expect(refused.body).toMatchObject({ code: 'license_tamper' });
      expect((await status()).tamper).toBe(true);
      const body = await reanchor();
      expect(body).toMatchObject({
        recount: 3,
        devices_with_certificates: 4,
        checkpoint_count: 6,
        active_count: 6,
      });
      const slots = await sql<{ identity_key: string }>(
        t,
        `SELECT identity_key FROM license_slots ORDER BY identity_key`,
      );
      const placeholders = slots.filter((s) => s.identity_key.startsWith('ph:'));
      expect(slots).toHaveLength(6);
      expect(placeholders).toHaveLength(body.placeholders as number);
      expect(slots.map((s) => s.identity_key)).toEqual(expect.arrayContaining([keys[0], keys[1]]));
      // A placeholder counts until decommissioned explicitly.
      const freed = await t.http
        .post('/api/v1/license/decommission')
        .set(...bearer(admin.accessToken))
        .send({ identity_key: placeholders[0].identity_key })
        .expect(200);
      expect(freed.body).toMatchObject({ active_count: 5 });
      expect(await status()).toMatchObject({ tamper: false, active_count: 5 });
    });

    it('checks the ledger at start: a restart on an edited ledger starts in tamper', async () => {
      const [last] = await sql<{ seq: string }>(
        t,
        `SELECT seq FROM license_ledger ORDER BY seq DESC LIMIT 1`,
      );
      await tamper(t, `UPDATE license_ledger SET event = 'count' WHERE seq = $1`, [last.seq]);
      const restarted = await startEnrollApp({ database: t.db });
      try {
        const res = await restarted.http
          .get('/api/v1/license/status')
          .set(...bearer(admin.accessToken))
          .expect(200);
        expect(res.body).toMatchObject({
          tamper: true,
          tamper_reason: expect.stringMatching(/breaks the hash chain/),
        });
        expect(
          restarted.logs
            .lines()
            .some(
              (l) =>
                String(l.msg).includes('failed its integrity check') &&
                l.check === 'at start' &&
                /breaks the hash chain/.test(String(l.reason)),
            ),
        ).toBe(true);
      } finally {
        await restarted.close();
      }
    });
  });
});
