import { enrollDevice, startEnrollApp } from '../fixtures/enroll';
import { adminKeyAction, registerKey, setOwner, SshKeyMaker } from '../fixtures/ssh-keys';
import { bearer, loginAdmin } from '../support/sessions';
import type { TestApp } from '../support/test-app';

const BASE = '/api/v1/admin/principal-aliases';

describe('Shared accounts - /api/v1/admin/principal-aliases', () => {
  let t: TestApp;
  let admin: string;
  let keys: SshKeyMaker;

  const asAdmin = () => ({
    get: (path: string) => t.http.get(path).set(...bearer(admin)),
    post: (path: string) => t.http.post(path).set(...bearer(admin)),
    put: (path: string) => t.http.put(path).set(...bearer(admin)),
    delete: (path: string) => t.http.delete(path).set(...bearer(admin)),
  });

  beforeAll(async () => {
    t = await startEnrollApp();
    admin = (await loginAdmin(t)).accessToken;
    keys = new SshKeyMaker();
  });
  afterAll(async () => {
    keys.cleanup();
    await t.close();
  });

  it('creates an alias with members (lower-cased), lists it, and refuses the same name again (409)', async () => {
    const created = await asAdmin()
      .post(BASE)
      .send({ name: 'web_ops', members: ['Alice@Example.com', 'bob@example.com'] })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'web_ops',
      enabled: true,
      members: ['alice@example.com', 'bob@example.com'],
      created_by: expect.any(String),
    });
    const list = await asAdmin().get(BASE).expect(200);
    expect(list.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'web_ops' })]),
    );
    const again = await asAdmin().post(BASE).send({ name: 'web_ops' }).expect(409);
    expect(again.body.code).toBe('principal_alias_exists');
  });

  it.each([
    ['upper case', 'Deploy'],
    ['a leading digit', '1deploy'],
    ['a leading dash', '-deploy'],
    ['a dot', 'de.ploy'],
    ['an at sign', 'deploy@x'],
    ['a dollar (Samba machine account)', 'deploy$'],
    ['33 characters', `d${'x'.repeat(32)}`],
    ['empty', ''],
  ])('refuses an alias name with %s (400)', async (_what, name) => {
    const res = await asAdmin().post(BASE).send({ name }).expect(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('accepts the POSIX edge names (_ first, digits, dash, 32 characters)', async () => {
    for (const name of ['_svc', 'a', 'ci-runner-01', `a${'b'.repeat(31)}`]) {
      await asAdmin().post(BASE).send({ name }).expect(201);
    }
  });

  it('refuses members that are not emails (400)', async () => {
    await asAdmin()
      .post(BASE)
      .send({ name: 'badmembers', members: ['not-an-email'] })
      .expect(400);
    await asAdmin().post(BASE).send({ name: 'nomember' }).expect(201);
    await asAdmin().post(`${BASE}/nomember/members`).send({ member: 'not-an-email' }).expect(400);
  });

  it('adds and removes members (409 twice, 404 for a non-member or unknown alias)', async () => {
    await asAdmin().post(BASE).send({ name: 'backup' }).expect(201);
    const added = await asAdmin()
      .post(`${BASE}/backup/members`)
      .send({ member: 'Carol@Example.com' })
      .expect(201);
    expect(added.body.members).toEqual(['carol@example.com']);
    const twice = await asAdmin()
      .post(`${BASE}/backup/members`)
      .send({ member: 'carol@example.com' })
      .expect(409);
    expect(twice.body.code).toBe('principal_alias_member_exists');

    await asAdmin()
      .delete(`${BASE}/backup/members/${encodeURIComponent('CAROL@example.com')}`)
      .expect(204);
    const gone = await asAdmin().delete(`${BASE}/backup/members/carol@example.com`).expect(404);
    expect(gone.body.code).toBe('principal_alias_member_not_found');
    const unknown = await asAdmin()
      .post(`${BASE}/no-such-alias/members`)
      .send({ member: 'carol@example.com' })
      .expect(404);
    expect(unknown.body.code).toBe('principal_alias_not_found');
    // A path name that is no valid alias name is simply not found.
    await asAdmin().get(`${BASE}/Not%20Valid/keys`).expect(404);
  });

  it('shows the keys and owners behind an alias; disabled and deleted aliases stop counting', async () => {
    const device = await enrollDevice(t);
    await setOwner(t, admin, device.serial, 'dana@example.com');
    const files = keys.make('ed25519', 'dana@laptop');
    const key = await registerKey(t, device, files.publicLine);
    await adminKeyAction(t, admin, key.id, 'approve');
    const pending = await enrollDevice(t);
    await setOwner(t, admin, pending.serial, 'dana@example.com');
    await registerKey(t, pending, keys.make().publicLine);

    await asAdmin()
      .post(BASE)
      .send({ name: 'dbadmin', members: ['dana@example.com', 'eve@example.com'] })
      .expect(201);
    const behind = await asAdmin().get(`${BASE}/dbadmin/keys`).expect(200);
    expect(behind.body).toMatchObject({
      alias: 'dbadmin',
      enabled: true,
      owners: [
        { person: 'dana@example.com', login: 'dana', keys: 1 },
        { person: 'eve@example.com', login: 'eve', keys: 0 },
      ],
      keys: [
        {
          id: key.id,
          owner: 'dana@example.com',
          key_type: 'ssh-ed25519',
          fingerprint: files.fingerprint,
          serial: device.serial,
          public_key: files.publicLine.split(' ').slice(0, 2).join(' '),
        },
      ],
    });
    expect((await t.http.get('/api/v1/keyholder/keys?login=dbadmin').expect(200)).text).toContain(
      key.id,
    );

    const disabled = await asAdmin()
      .put(`${BASE}/dbadmin/enabled`)
      .send({ enabled: false })
      .expect(200);
    expect(disabled.body.enabled).toBe(false);
    expect((await asAdmin().get(`${BASE}/dbadmin/keys`).expect(200)).body.enabled).toBe(false);
    expect((await t.http.get('/api/v1/keyholder/keys?login=dbadmin').expect(200)).text).toBe('');
    await asAdmin().put(`${BASE}/dbadmin/enabled`).send({ enabled: 'yes' }).expect(400);

    await asAdmin().put(`${BASE}/dbadmin/enabled`).send({ enabled: true }).expect(200);
    await asAdmin().delete(`${BASE}/dbadmin`).expect(204);
    expect((await asAdmin().delete(`${BASE}/dbadmin`).expect(404)).body.code).toBe(
      'principal_alias_not_found',
    );
    expect((await t.http.get('/api/v1/keyholder/keys?login=dbadmin').expect(200)).text).toBe('');
  });

  it('writes audit entries for every change', async () => {
    await asAdmin().post(BASE).send({ name: 'audited' }).expect(201);
    await asAdmin().post(`${BASE}/audited/members`).send({ member: 'f@example.com' }).expect(201);
    await asAdmin().put(`${BASE}/audited/enabled`).send({ enabled: false }).expect(200);
    await asAdmin().put(`${BASE}/audited/enabled`).send({ enabled: true }).expect(200);
    await asAdmin().delete(`${BASE}/audited/members/f@example.com`).expect(204);
    await asAdmin().delete(`${BASE}/audited`).expect(204);
    const audit = await asAdmin().get('/api/v1/audit?limit=500').expect(200);
    const actions = (audit.body.items as { action: string; target: string }[])
      .filter((r) => r.target === 'audited')
      .map((r) => r.action)
      .sort();
    expect(actions).toEqual(
      [
        'principal_alias.create',
        'principal_alias.member_add',
        'principal_alias.disable',
        'principal_alias.enable',
        'principal_alias.member_remove',
        'principal_alias.delete',
      ].sort(),
    );
  });
});
