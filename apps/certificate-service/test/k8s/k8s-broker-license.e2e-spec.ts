import { sql } from '../fixtures/enroll';
import { Vendor } from '../fixtures/license';
import { bearer, type TestUser } from '../support/sessions';
import { ADMIN_EMAIL, type TestApp } from '../support/test-app';
import {
  startBrokerLab,
  tempDir,
  userMtlsCertificate,
  type BrokerLab,
  type ClientIdentity,
} from './k8s-support';

/** Edits the append-only ledger as an attacker with database access would. */
async function tamperLedger(t: TestApp): Promise<void> {
  await sql(t, `ALTER TABLE license_ledger DISABLE TRIGGER "TRG_license_ledger_append_only"`);
  try {
    await sql(
      t,
      `UPDATE license_ledger SET identity_key = 'sn:forged' WHERE seq = (SELECT min(seq) FROM license_ledger)`,
    );
  } finally {
    await sql(t, `ALTER TABLE license_ledger ENABLE TRIGGER "TRG_license_ledger_append_only"`);
  }
}

describe('Kubernetes credential broker under the license', () => {
  const tmp = tempDir();
  const vendor = new Vendor();
  let t: TestApp;
  let admin: TestUser;
  let ask: BrokerLab['ask'];
  let alice: ClientIdentity;
  let bob: ClientIdentity;
  let carol: ClientIdentity;
  afterAll(async () => {
    await t?.close();
    tmp.cleanup();
    vendor.dispose();
  });

  beforeAll(async () => {
    const lab = await startBrokerLab(tmp.dir, {
      env: {
        CERTSVC_DEFAULT_MAX_DEVICES: '2',
        CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: vendor.publicKey,
      },
      clusters: [{ name: 'dev', server_url: 'https://127.0.0.1:6443' }],
    });
    ({ t, admin, ask, me: alice } = lab);
    bob = await userMtlsCertificate(t, admin.accessToken, 'bob@certsvc.test');
  });

  const status = async () =>
    (
      await t.http
        .get('/api/v1/license/status')
        .set(...bearer(admin.accessToken))
        .expect(200)
    ).body as {
      active_count: number;
      tamper: boolean;
      purpose_seats: { purpose: string; bought: number; used: number; free: number }[];
    };
  const identityOf = async (client: ClientIdentity) =>
    (
      await sql<{ k: string; id: string }>(
        t,
        `SELECT d.identity_key AS k, d.id FROM certificates c JOIN devices d ON d.id = c.device_id
          WHERE c.serial = $1`,
        [client.serial],
      )
    )[0];
  const decommission = (identityKey: string) =>
    t.http
      .post('/api/v1/license/decommission')
      .set(...bearer(admin.accessToken))
      .send({ identity_key: identityKey })
      .expect(200);

  it('records each credential (one row) and holds the k8s seat of the device while it lives', async () => {
    const before = await status();
    const res = await ask(alice);
    expect(res.status).toBe(201);
    const device = await identityOf(alice);
    const rows = await sql<{ device_id: string; user_identity: string; caller_serial: string }>(
      t,
      `SELECT device_id, user_identity, caller_serial FROM k8s_credentials WHERE serial = $1`,
      [res.body.serial],
    );
    expect(rows).toEqual([
      { device_id: device.id, user_identity: ADMIN_EMAIL, caller_serial: alice.serial },
    ]);
    // The device already held a slot (its user_mtls issuance counted it): nothing new counted.
    const after = await status();
    expect(after.active_count).toBe(before.active_count);
    expect(after.purpose_seats.find((s) => s.purpose === 'k8s')?.used).toBe(1);
    await ask(alice);
    expect((await status()).purpose_seats.find((s) => s.purpose === 'k8s')?.used).toBe(1);
    // Expired credentials hold no seat.
    await sql(t, `UPDATE k8s_credentials SET not_after = now() - interval '1 second'`);
    expect((await status()).purpose_seats.find((s) => s.purpose === 'k8s')?.used).toBe(0);
  });

  it('counts a device without a slot in the ledger, and refuses it over max_devices (402 license_limit)', async () => {
    const a = await identityOf(alice);
    await decommission(a.k);
    expect((await status()).active_count).toBe(1);
    // Two slots, bob holds one: alice's device is counted again by its k8s credential.
    expect((await ask(alice)).status).toBe(201);
    const [last] = await sql<{ identity_key: string; event: string }>(
      t,
      `SELECT identity_key, event FROM license_ledger ORDER BY seq DESC LIMIT 1`,
    );
    expect(last).toEqual({ identity_key: a.k, event: 'count' });
    expect((await status()).active_count).toBe(2);
    // Free alice's slot again and give it to a third device: alice is refused, bob is not.
    await decommission(a.k);
    carol = await userMtlsCertificate(t, admin.accessToken, 'carol@certsvc.test');
    const refused = await ask(alice);
    expect([refused.status, refused.body.code]).toEqual([402, 'license_limit']);
    expect((await ask(bob)).status).toBe(201);
    expect((await status()).active_count).toBe(2);
  });

  it('refuses every credential with 402 license_tamper once the ledger fails its check; reanchor restores', async () => {
    await tamperLedger(t);
    // Alice's device needs a slot: the ledger is checked before this counted issuance.
    const first = await ask(alice);
    expect([first.status, first.body.code]).toEqual([402, 'license_tamper']);
    expect((await status()).tamper).toBe(true);
    // Each credential is a new issuance: bob's device, holding a slot, is refused as well.
    const second = await ask(bob);
    expect([second.status, second.body.code]).toEqual([402, 'license_tamper']);
    const rows = await sql<{ n: number }>(t, `SELECT count(*)::int AS n FROM k8s_credentials`);
    await t.http
      .post('/api/v1/license/reanchor')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect((await ask(bob)).status).toBe(201);
    expect(await sql(t, `SELECT count(*)::int AS n FROM k8s_credentials`)).toEqual([
      { n: rows[0].n + 1 },
    ]);
  });

  it('takes a k8s seat under a license with seats: step 3 refuses (402 license_purpose_limit), 2 and 1 issue', async () => {
    await sql(t, `UPDATE k8s_credentials SET not_after = now() - interval '1 second'`);
    const instanceKey = (
      (
        await t.http
          .get('/api/v1/license/status')
          .set(...bearer(admin.accessToken))
          .expect(200)
      ).body as { deployment_instance_key: string }
    ).deployment_instance_key;
    await t.http
      .post('/api/v1/license/activate')
      .set(...bearer(admin.accessToken))
      .send({ license_b64: vendor.sign({ instanceKey, maxDevices: 10, seats: { k8s: 1 } }) })
      .expect(200);
    const step = (n: number) =>
      t.http
        .put('/api/v1/license/seat-enforcement')
        .set(...bearer(admin.accessToken))
        .send({ step: n })
        .expect(200);
    await step(3);
    expect((await ask(alice)).status).toBe(201);
    const refused = await ask(bob);
    expect([refused.status, refused.body.code]).toEqual([402, 'license_purpose_limit']);
    // The seat holder's next credential consumes nothing and is never refused.
    expect((await ask(alice)).status).toBe(201);
    expect((await status()).purpose_seats.find((s) => s.purpose === 'k8s')).toEqual({
      purpose: 'k8s',
      bought: 1,
      used: 1,
      free: 0,
    });
    await step(2);
    expect((await ask(bob)).status).toBe(201);
    await step(1);
    expect((await ask(carol)).status).toBe(201);
    expect((await status()).purpose_seats.find((s) => s.purpose === 'k8s')?.used).toBe(3);
  });
});
