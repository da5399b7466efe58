import { randomBytes } from 'node:crypto';
import { enrollDevice, startEnrollApp, type EnrolledDevice } from '../fixtures/enroll';
import {
  adminKeyAction,
  putSystemSettings,
  registerKey,
  setOwner,
  SshKeyMaker,
} from '../fixtures/ssh-keys';
import { bearer, loginAdmin } from '../support/sessions';
import type { TestApp } from '../support/test-app';

function wire(value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

describe('SSH key registry - /api/v1/enroll/ssh-key (POST), /status (POST), /api/v1/admin/ssh-keys', () => {
  let t: TestApp;
  let admin: string;
  let keys: SshKeyMaker;
  let device: EnrolledDevice;

  beforeAll(async () => {
    t = await startEnrollApp();
    admin = (await loginAdmin(t)).accessToken;
    keys = new SshKeyMaker();
    device = await enrollDevice(t);
    await setOwner(t, admin, device.serial, 'alice@example.com');
  });
  afterAll(async () => {
    keys.cleanup();
    await t.close();
  });

  const asAdmin = {
    get: (path: string) => t.http.get(path).set(...bearer(admin)),
  };

  it('registers a key as pending, lists it for the device, and answers the same record again', async () => {
    const key = keys.make('ed25519', 'alice@laptop');
    const first = await registerKey(t, device, key.publicLine);
    expect(first).toMatchObject({
      state: 'pending',
      fingerprint: key.fingerprint,
      key_type: 'ssh-ed25519',
      comment: 'alice@laptop',
      binding_verdict: 'not_checked',
    });
    const again = await registerKey(t, device, key.publicLine);
    expect(again.id).toBe(first.id);

    const status = await t.http
      .post('/api/v1/enroll/ssh-key/status')
      .send({ serial: device.serial, enrollment_token: device.enrollmentToken })
      .expect(200);
    expect(status.body.serial).toBe(device.serial);
    expect(status.body.keys).toEqual([expect.objectContaining({ id: first.id, state: 'pending' })]);
  });

  it('refuses the same key from another device (409 ssh_key_in_use)', async () => {
    const key = keys.make('ecdsa');
    await registerKey(t, device, key.publicLine);
    const other = await enrollDevice(t);
    const res = await t.http
      .post('/api/v1/enroll/ssh-key')
      .send({
        serial: other.serial,
        enrollment_token: other.enrollmentToken,
        public_key: key.publicLine,
      })
      .expect(409);
    expect(res.body.code).toBe('ssh_key_in_use');
  });

  it('refuses a wrong enrollment token (401) and stores nothing', async () => {
    const key = keys.make();
    const res = await t.http
      .post('/api/v1/enroll/ssh-key')
      .send({ serial: device.serial, enrollment_token: 'wet_wrong', public_key: key.publicLine })
      .expect(401);
    expect(res.body.code).toBe('enrollment_token_invalid');
    const list = await asAdmin
      .get(`/api/v1/admin/ssh-keys?fingerprint=${encodeURIComponent(key.fingerprint)}`)
      .expect(200);
    expect(list.body.total).toBe(0);
  });

  it.each([
    ['garbage', 'not a key at all'],
    ['a truncated blob', (l: string) => l.slice(0, 40)],
    [
      'a type that does not match the blob',
      (l: string) => l.replace(/^ssh-ed25519/, 'ecdsa-sha2-nistp256'),
    ],
    ['two keys in one field', (l: string) => `${l}\n${l}`],
    ['options before the key', (l: string) => `command="/bin/sh" ${l}`],
  ])('refuses a malformed key (%s) with 400 ssh_key_invalid', async (_name, make) => {
    const line = typeof make === 'string' ? make : make(keys.make().publicLine);
    const res = await t.http
      .post('/api/v1/enroll/ssh-key')
      .send({ serial: device.serial, enrollment_token: device.enrollmentToken, public_key: line });
    expect(res.status).toBe(400);
    expect(['ssh_key_invalid', 'invalid_request']).toContain(res.body.code);
    if (!line.includes('\n')) expect(res.body.code).toBe('ssh_key_invalid');
  });

  it.each([
    [
      'DSA',
      () => `ssh-dss ${Buffer.concat([wire('ssh-dss'), wire(randomBytes(20))]).toString('base64')}`,
    ],
    ['RSA 1024', () => keys.make('rsa', 'x@y', 1024).publicLine],
    [
      'a certificate',
      () =>
        `ssh-ed25519-cert-v01@openssh.com ${wire('ssh-ed25519-cert-v01@openssh.com').toString('base64')}`,
    ],
  ])(
    'refuses an unsupported key type (%s) with 400 ssh_key_type_unsupported',
    async (_name, make) => {
      const res = await t.http
        .post('/api/v1/enroll/ssh-key')
        .send({
          serial: device.serial,
          enrollment_token: device.enrollmentToken,
          public_key: make(),
        })
        .expect(400);
      expect(res.body.code).toBe('ssh_key_type_unsupported');
    },
  );

  it('moves pending -> active -> revoked and refuses illegal moves with 409', async () => {
    const key = await registerKey(t, device, keys.make().publicLine);
    const approved = await adminKeyAction(t, admin, key.id, 'approve');
    expect(approved).toMatchObject({
      state: 'active',
      approval: 'manual',
      owner: 'alice@example.com',
      serial: device.serial,
    });
    expect((await adminKeyAction(t, admin, key.id, 'approve', 409)).code).toBe(
      'ssh_key_not_pending',
    );
    expect((await adminKeyAction(t, admin, key.id, 'reject', 409)).code).toBe(
      'ssh_key_not_pending',
    );
    const revoked = await adminKeyAction(t, admin, key.id, 'revoke');
    expect(revoked).toMatchObject({
      state: 'revoked',
      outcome: 'revoked',
      revoked_by: expect.any(String),
    });
    expect((await adminKeyAction(t, admin, key.id, 'revoke', 409)).code).toBe(
      'ssh_key_not_revocable',
    );
    expect((await adminKeyAction(t, admin, key.id, 'approve', 409)).code).toBe(
      'ssh_key_not_pending',
    );
  });

  it('never registers a revoked key again (409 ssh_key_revoked)', async () => {
    const files = keys.make();
    const key = await registerKey(t, device, files.publicLine);
    await adminKeyAction(t, admin, key.id, 'approve');
    await adminKeyAction(t, admin, key.id, 'revoke');
    const res = await t.http
      .post('/api/v1/enroll/ssh-key')
      .send({
        serial: device.serial,
        enrollment_token: device.enrollmentToken,
        public_key: files.publicLine,
      })
      .expect(409);
    expect(res.body.code).toBe('ssh_key_revoked');
  });

  it('rejects a pending key on revoke (pending -> rejected), and a rejected key may be sent again', async () => {
    const files = keys.make();
    const key = await registerKey(t, device, files.publicLine);
    const res = await adminKeyAction(t, admin, key.id, 'revoke');
    expect(res).toMatchObject({ state: 'rejected', outcome: 'rejected' });
    expect((await adminKeyAction(t, admin, key.id, 'reject', 409)).code).toBe(
      'ssh_key_not_pending',
    );
    expect((await adminKeyAction(t, admin, key.id, 'revoke', 409)).code).toBe(
      'ssh_key_not_revocable',
    );
    const again = await registerKey(t, device, files.publicLine);
    expect(again.id).not.toBe(key.id);
    expect(again.state).toBe('pending');
  });

  it('answers 404 ssh_key_not_found for unknown and non-UUID ids', async () => {
    expect(
      (await adminKeyAction(t, admin, '00000000-0000-4000-8000-000000000000', 'approve', 404)).code,
    ).toBe('ssh_key_not_found');
    expect((await adminKeyAction(t, admin, 'not-a-uuid', 'revoke', 404)).code).toBe(
      'ssh_key_not_found',
    );
  });

  it('writes audit entries for approve, reject and revoke', async () => {
    const a = await registerKey(t, device, keys.make().publicLine);
    const b = await registerKey(t, device, keys.make().publicLine);
    await adminKeyAction(t, admin, a.id, 'approve');
    await adminKeyAction(t, admin, a.id, 'revoke');
    await adminKeyAction(t, admin, b.id, 'reject');
    const audit = await asAdmin.get('/api/v1/audit?limit=500').expect(200);
    const mine = (audit.body.items as { action: string; target: string }[]).filter((r) =>
      [a.id, b.id].includes(r.target),
    );
    expect(mine.map((r) => `${r.action} ${r.target}`).sort()).toEqual(
      [`ssh_key.approve ${a.id}`, `ssh_key.revoke ${a.id}`, `ssh_key.reject ${b.id}`].sort(),
    );
  });

  it('lists the fleet with filters and paging, and one device through /devices/{serial}/ssh-keys', async () => {
    const other = await enrollDevice(t);
    const x = await registerKey(t, other, keys.make().publicLine);
    const y = await registerKey(t, other, keys.make('ecdsa').publicLine);
    await adminKeyAction(t, admin, y.id, 'approve');

    const bySerial = await asAdmin.get(`/api/v1/admin/ssh-keys?serial=${other.serial}`).expect(200);
    expect(bySerial.body.total).toBe(2);
    const active = await asAdmin
      .get(`/api/v1/admin/ssh-keys?serial=${other.serial}&state=active`)
      .expect(200);
    expect(active.body.items.map((k: { id: string }) => k.id)).toEqual([y.id]);
    const ecdsa = await asAdmin
      .get(`/api/v1/admin/ssh-keys?serial=${other.serial}&key_type=ecdsa-sha2-nistp256`)
      .expect(200);
    expect(ecdsa.body.items.map((k: { id: string }) => k.id)).toEqual([y.id]);
    const page2 = await asAdmin
      .get(`/api/v1/admin/ssh-keys?serial=${other.serial}&limit=1&page=2`)
      .expect(200);
    expect(page2.body).toMatchObject({ page: 2, limit: 1, total: 2 });
    expect(page2.body.items).toHaveLength(1);
    expect(page2.body.items[0].public_key).toMatch(
      /^(ssh-ed25519|ecdsa-sha2-nistp256) [A-Za-z0-9+/]+=*$/,
    );
    await asAdmin.get('/api/v1/admin/ssh-keys?state=lost').expect(400);
    await asAdmin.get('/api/v1/admin/ssh-keys?limit=501').expect(400);

    const ofDevice = await asAdmin.get(`/api/v1/devices/${other.serial}/ssh-keys`).expect(200);
    expect(ofDevice.body.map((k: { id: string }) => k.id).sort()).toEqual([x.id, y.id].sort());
    const missing = await asAdmin.get('/api/v1/devices/NO-SUCH-DEVICE/ssh-keys').expect(404);
    expect(missing.body.code).toBe('device_not_found');
  });

  describe('auto-approval (off by default)', () => {
    afterAll(() =>
      putSystemSettings(t, admin, {
        ssh_key_auto_approve: false,
        ssh_key_auto_approve_principals: [],
      }),
    );

    it('is off by default: a new key waits for a person', async () => {
      const settings = await asAdmin.get('/api/v1/settings/system').expect(200);
      expect(settings.body).toMatchObject({ ssh_key_auto_approve: false, ssh_key_binding: 'off' });
      const key = await registerKey(t, device, keys.make().publicLine);
      expect(key.state).toBe('pending');
    });

    it('when on, activates a key of any device with a valid token at once (audited as system)', async () => {
      await putSystemSettings(t, admin, {
        ssh_key_auto_approve: true,
        ssh_key_auto_approve_principals: ['deploy'],
      });
      const ownerless = await enrollDevice(t);
      const key = await registerKey(t, ownerless, keys.make().publicLine);
      expect(key.state).toBe('active');
      const row = await asAdmin
        .get(`/api/v1/admin/ssh-keys?fingerprint=${encodeURIComponent(key.fingerprint)}`)
        .expect(200);
      expect(row.body.items[0]).toMatchObject({
        approval: 'auto',
        approved_by: 'auto',
        owner: null,
      });
      const audit = await asAdmin.get('/api/v1/audit?action=ssh_key.approve&limit=500').expect(200);
      expect(audit.body.items).toEqual(
        expect.arrayContaining([expect.objectContaining({ target: key.id, actor: 'system' })]),
      );
    });
  });

  describe('binding to a person', () => {
    afterAll(() => putSystemSettings(t, admin, { ssh_key_binding: 'off' }));

    it('off (default): nothing is checked', async () => {
      const key = await registerKey(t, device, keys.make('ed25519', 'mallory@laptop').publicLine);
      expect(key).toMatchObject({ state: 'pending', binding_verdict: 'not_checked' });
    });

    it('record: the verdict is recorded and nothing is refused', async () => {
      await putSystemSettings(t, admin, { ssh_key_binding: 'record' });
      const match = await registerKey(t, device, keys.make('ed25519', 'alice@laptop').publicLine);
      const contra = await registerKey(
        t,
        device,
        keys.make('ed25519', 'mallory@laptop').publicLine,
      );
      const none = await registerKey(t, device, keys.make('ed25519', 'yubikey').publicLine);
      expect([match, contra, none].map((k) => [k.state, k.binding_verdict])).toEqual([
        ['pending', 'match'],
        ['pending', 'contradiction'],
        ['pending', 'unverifiable'],
      ]);
      const claimed = await registerKey(t, device, keys.make('ed25519', 'yubikey').publicLine, {
        user: 'bob@example.com',
      });
      expect(claimed.binding_verdict).toBe('contradiction');
    });

    it('enforce: a contradiction or a key naming nobody is rejected at registration', async () => {
      await putSystemSettings(t, admin, { ssh_key_binding: 'enforce' });
      const match = await registerKey(t, device, keys.make('ed25519', 'alice@laptop').publicLine);
      const contra = await registerKey(
        t,
        device,
        keys.make('ed25519', 'mallory@laptop').publicLine,
      );
      const none = await registerKey(t, device, keys.make('ed25519', 'yubikey').publicLine);
      expect([match, contra, none].map((k) => [k.state, k.binding_verdict])).toEqual([
        ['pending', 'match'],
        ['rejected', 'contradiction'],
        ['rejected', 'unverifiable'],
      ]);
    });

    it('enforce: approval re-checks against the owner of the moment (422, key left pending)', async () => {
      await putSystemSettings(t, admin, { ssh_key_binding: 'enforce' });
      const other = await enrollDevice(t);
      await setOwner(t, admin, other.serial, 'carol@example.com');
      const key = await registerKey(t, other, keys.make('ed25519', 'carol@laptop').publicLine);
      expect(key.state).toBe('pending');
      await setOwner(t, admin, other.serial, 'dave@example.com');
      const refused = await adminKeyAction(t, admin, key.id, 'approve', 422);
      expect(refused.code).toBe('ssh_key_binding_rejected');
      const row = await asAdmin.get(`/api/v1/devices/${other.serial}/ssh-keys`).expect(200);
      expect(row.body[0]).toMatchObject({ state: 'pending', owner: 'carol@example.com' });
      await setOwner(t, admin, other.serial, 'carol@example.com');
      expect(await adminKeyAction(t, admin, key.id, 'approve')).toMatchObject({
        state: 'active',
        binding_verdict: 'match',
      });
    });
  });
});
