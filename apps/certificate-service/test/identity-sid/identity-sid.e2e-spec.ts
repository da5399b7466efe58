import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql, startEnrollApp, uniqueSerial } from '../fixtures/enroll';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { sidBytes } from '../../src/modules/identity-sid/object-sid';
import { LdapStandIn } from './ldap-stand-in';

const BASE = 'dc=corp,dc=example';
const BIND_DN = `cn=svc-certsvc,ou=service,${BASE}`;
const BIND_PASSWORD = 'bind-Secret-4e7f1c';
const ALICE_SID = 'S-1-5-21-1004336348-1177238915-682003330-1105';
const CAROL_SID = 'S-1-5-21-1004336348-1177238915-682003330-1107';
const STAR_SID = 'S-1-5-21-1004336348-1177238915-682003330-1110';
const JORG_SID = 'S-1-5-21-1004336348-1177238915-682003330-1111';

const user = (cn: string, upn: string, sid: string | Buffer) => ({
  dn: `cn=${cn},ou=people,${BASE}`,
  attributes: { cn, userPrincipalName: upn, objectSid: sid },
});

const ENTRIES = [
  user('alice', 'alice@corp.example', sidBytes(ALICE_SID)),
  user('bob', 'bob@corp.example', sidBytes('S-1-5-21-1004336348-1177238915-682003330-1106')),
  // a directory that stores the string form
  user('carol', 'carol@corp.example', CAROL_SID),
  // one UPN on two entries
  user('dup1', 'dup@corp.example', sidBytes('S-1-5-21-1-2-3-1201')),
  user('dup2', 'dup@corp.example', sidBytes('S-1-5-21-1-2-3-1202')),
  // a UPN that really holds filter specials: escaping keeps its meaning
  user('star', 'st*r(x)\\y@corp.example', sidBytes(STAR_SID)),
  user('jorg', 'jörg.müller@corp.example', sidBytes(JORG_SID)),
];

interface EnrolledDevice {
  serial: string;
  enrollmentToken: string;
}

/**
 * A registered device with its enrollment token, written as POST /enroll leaves it (the
 * token's SHA-256 in `devices`): the route under test only authenticates serial and token.
 */
async function enrollDevice(t: TestApp): Promise<EnrolledDevice> {
  const serial = uniqueSerial('SID');
  const enrollmentToken = `wet_${randomBytes(24).toString('base64url')}`;
  await sql(
    t,
    `INSERT INTO devices (id, serial, enrollment_token_hash, assigned_purposes, identity_key)
     VALUES ($1, $2, $3, '{wifi}', $4)`,
    [
      randomUUID(),
      serial,
      createHash('sha256').update(enrollmentToken).digest('hex'),
      `sn:${serial}`,
    ],
  );
  return { serial, enrollmentToken };
}

const ENV = {
  CERTSVC_SCEP_ENC_KEY: '5a'.repeat(32),
  CERTSVC_IDENTITY_DIRECTORY_EGRESS_ALLOW_LOCAL_DIAL: 'true',
  CERTSVC_IDENTITY_SID_RATE_LIMIT_PER_HOUR: '100',
};

describe('Identity SID - /api/v1/enroll/identity-sid over an LDAP directory', () => {
  let t: TestApp;
  let admin: TestUser;
  let directory: LdapStandIn;
  let device: EnrolledDevice;

  const settings = (overrides: Record<string, unknown> = {}) => ({
    enabled: true,
    url: directory.url(),
    bind_dn: BIND_DN,
    bind_password: BIND_PASSWORD,
    base_dn: BASE,
    timeout_ms: 3000,
    ...overrides,
  });
  const put = (body: Record<string, unknown>) =>
    t.http
      .put('/api/v1/settings/identity-directory')
      .set(...bearer(admin.accessToken))
      .send(body);
  const ask = (upn: string, who: EnrolledDevice = device) =>
    t.http.post('/api/v1/enroll/identity-sid').send({
      serial: who.serial,
      enrollment_token: who.enrollmentToken,
      upn,
    });

  beforeAll(async () => {
    directory = await LdapStandIn.start({
      baseDn: BASE,
      bindDn: BIND_DN,
      bindPassword: BIND_PASSWORD,
      entries: ENTRIES,
    });
    t = await startEnrollApp({ env: ENV });
    admin = await loginAdmin(t);
    device = await enrollDevice(t);
  });
  afterAll(async () => {
    await t.close();
    await directory.close();
  });

  it('answers 409 identity_directory_not_configured before a directory is stored', async () => {
    const view = await t.http
      .get('/api/v1/settings/identity-directory')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(view.body).toMatchObject({
      configured: false,
      enabled: false,
      has_bind_password: false,
      upn_attribute: 'userPrincipalName',
      sid_attribute: 'objectSid',
    });
    const res = await ask('alice@corp.example').expect(409);
    expect(res.body.code).toBe('identity_directory_not_configured');
  });

  it('stores the setting with the password sealed: never returned, audited or logged', async () => {
    const res = await put(settings()).expect(200);
    expect(res.body).toMatchObject({
      configured: true,
      enabled: true,
      url: directory.url(),
      has_bind_password: true,
      timeout_ms: 3000,
    });
    expect(JSON.stringify(res.body)).not.toContain(BIND_PASSWORD);
    const [row] = await sql<{ sealed_bind_password: string }>(
      t,
      'SELECT sealed_bind_password FROM identity_directory_settings',
    );
    expect(row.sealed_bind_password).not.toContain(BIND_PASSWORD);
    expect(row.sealed_bind_password.length).toBeGreaterThan(40);
    const audit = await sql<{ details: unknown }>(
      t,
      `SELECT details FROM audit_log WHERE action = 'settings.identity_directory_change'`,
    );
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0].details)).not.toContain(BIND_PASSWORD);
    expect(audit[0].details).toMatchObject({ bind_password_changed: true });

    // a PUT without the password keeps it (same url and bind DN)
    const { bind_password: _omit, ...withoutPassword } = settings({ timeout_ms: 4000 });
    const kept = await put(withoutPassword).expect(200);
    expect(kept.body).toMatchObject({ has_bind_password: true, timeout_ms: 4000 });
    await ask('alice@corp.example').expect(200);
  });

  it('answers the SID of exactly one match: binary objectSid and a string SID', async () => {
    const alice = await ask('alice@corp.example').expect(200);
    expect(alice.body).toEqual({ upn: 'alice@corp.example', sid: ALICE_SID });
    const carol = await ask('carol@corp.example').expect(200);
    expect(carol.body).toEqual({ upn: 'carol@corp.example', sid: CAROL_SID });
    const jorg = await ask('jörg.müller@corp.example').expect(200);
    expect(jorg.body.sid).toBe(JORG_SID);
  });

  it('answers the same 404 for no match and for two matches', async () => {
    const none = await ask('nobody@corp.example').expect(404);
    const two = await ask('dup@corp.example').expect(404);
    expect(none.body.code).toBe('identity_not_found');
    expect(two.body).toEqual(none.body);
  });

  it('escapes the UPN (RFC 4515): injections match nothing, specials keep their meaning', async () => {
    const before = directory.filters.length;
    for (const upn of [
      '*@corp.example',
      'alice@corp.exampl*',
      'alice@corp.example)(userPrincipalName=*',
      '*)(|(cn=*@x',
      'alice@corp.example)(objectClass=*',
      'al\\2aice@corp.example',
      'alice\\00@corp.example',
    ]) {
      const res = await ask(upn).expect(404);
      expect(res.body.code).toBe('identity_not_found');
    }
    const sent = directory.filters.slice(before);
    expect(sent).toHaveLength(7);
    // one equality assertion each: no bare `*`, `(`, `)` or `\` left to the directory's parser
    for (const filter of sent) {
      expect(filter).toMatch(/^\(userPrincipalName=(?:[^()*\\]|\\[0-9a-f]{2})*\)$/);
    }
    const star = await ask('st*r(x)\\y@corp.example').expect(200);
    expect(star.body.sid).toBe(STAR_SID);
  });

  it('refuses malformed UPNs with 400 invalid_request before asking anyone', async () => {
    const before = directory.filters.length;
    for (const upn of [
      '',
      'alice',
      '@corp.example',
      'a@b@c',
      'al ice@corp',
      'a\u0000b@corp',
      'a\nb@corp',
      `${'a'.repeat(300)}@x`,
    ]) {
      const res = await ask(upn).expect(400);
      expect(res.body.code).toBe('invalid_request');
    }
    await t.http
      .post('/api/v1/enroll/identity-sid')
      .send({ serial: device.serial, enrollment_token: device.enrollmentToken, upn: 42 })
      .expect(400);
    expect(directory.filters.length).toBe(before);
  });

  it('answers the same 401 for an unknown serial and a wrong token, found or not', async () => {
    const wrong = await t.http
      .post('/api/v1/enroll/identity-sid')
      .send({ serial: device.serial, enrollment_token: 'wet_wrong', upn: 'alice@corp.example' })
      .expect(401);
    const unknown = await t.http
      .post('/api/v1/enroll/identity-sid')
      .send({ serial: 'SN-UNKNOWN-1', enrollment_token: 'wet_x', upn: 'nobody@corp.example' })
      .expect(401);
    expect(wrong.body.code).toBe('enrollment_token_invalid');
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers 503 identity_directory_unavailable on a refused bind, without the directory text', async () => {
    await put(settings({ bind_password: 'not-the-password' })).expect(200);
    const res = await ask('alice@corp.example').expect(503);
    expect(res.body).toEqual({
      code: 'identity_directory_unavailable',
      message: 'the identity directory cannot be reached; try again later',
    });
    const test = await t.http
      .post('/api/v1/settings/identity-directory/test-connection')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(test.body.ok).toBe(false);
    expect(test.body.steps).toContainEqual(expect.objectContaining({ step: 'bind', ok: false }));
    expect(JSON.stringify(test.body)).not.toContain('not-the-password');

    await put(settings()).expect(200);
    const good = await t.http
      .post('/api/v1/settings/identity-directory/test-connection')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(good.body).toMatchObject({ ok: true });
    expect(good.body.steps.map((s: { step: string }) => s.step)).toEqual([
      'egress',
      'connect',
      'bind',
      'search',
    ]);
  });

  it('answers 503 when the directory is down, and 409 when it is disabled', async () => {
    const down = await LdapStandIn.start({
      baseDn: BASE,
      bindDn: BIND_DN,
      bindPassword: BIND_PASSWORD,
      entries: [],
    });
    const url = down.url();
    await down.close();
    await put(settings({ url })).expect(200);
    const res = await ask('alice@corp.example').expect(503);
    expect(res.body.code).toBe('identity_directory_unavailable');

    await put(settings({ enabled: false })).expect(200);
    const off = await ask('alice@corp.example').expect(409);
    expect(off.body.code).toBe('identity_directory_not_configured');
    await put(settings()).expect(200);
  });

  it('a new url or bind DN drops the stored password: it is never sent to another server', async () => {
    const { bind_password: _omit, ...rest } = settings({ url: directory.url('ldap', 'localhost') });
    const refused = await put(rest).expect(400);
    expect(refused.body.code).toBe('identity_directory_settings_invalid');
    const disabled = await put({ ...rest, enabled: false }).expect(200);
    expect(disabled.body.has_bind_password).toBe(false);
    await put(settings()).expect(200);
  });

  it('refuses invalid settings field by field', async () => {
    for (const [overrides, field] of [
      [{ url: 'http://127.0.0.1:389' }, 'url'],
      [{ url: 'ldap://user:pw@127.0.0.1' }, 'url'],
      [{ url: `${directory.url()}/dc=corp` }, 'url'],
      [{ url: 'ldap://169.254.169.254' }, 'url'],
      [{ bind_dn: 'svc' }, 'bind_dn'],
      [{ base_dn: '' }, 'base_dn'],
      [{ upn_attribute: 'upn)(x' }, 'upn_attribute'],
      [{ sid_attribute: '' }, 'sid_attribute'],
      [{ timeout_ms: 10 }, 'timeout_ms'],
      [{ timeout_ms: 3_600_000 }, 'timeout_ms'],
      [{ ca_pem: 'not a pem' }, 'ca_pem'],
    ] as const) {
      const res = await put(settings(overrides)).expect(400);
      expect(res.body.code).toBe('identity_directory_settings_invalid');
      expect(res.body.message).toContain(field);
    }
    await put({ enabled: 'yes' }).expect(400);
  });

  it('never writes the bind password into a log line', () => {
    const text = JSON.stringify(t.logs.lines());
    expect(text).toContain('identity-sid');
    expect(text).not.toContain(BIND_PASSWORD);
    expect(text).not.toContain('not-the-password');
  });
});

describe('Identity SID - the per-device budget and the egress guard', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp({
      env: { CERTSVC_SCEP_ENC_KEY: '5a'.repeat(32), CERTSVC_IDENTITY_SID_RATE_LIMIT_PER_HOUR: '2' },
    });
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('answers 429 rate_limited with Retry-After once a device used its hourly budget', async () => {
    const one = await enrollDevice(t);
    const other = await enrollDevice(t);
    const ask = (who: EnrolledDevice) =>
      t.http.post('/api/v1/enroll/identity-sid').send({
        serial: who.serial,
        enrollment_token: who.enrollmentToken,
        upn: 'alice@corp.example',
      });
    await ask(one).expect(409);
    await ask(one).expect(409);
    const limited = await ask(one).expect(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(3600);
    // another device has its own budget; a wrong token spends none
    await ask(other).expect(409);
    await t.http
      .post('/api/v1/enroll/identity-sid')
      .send({ serial: one.serial, enrollment_token: 'wet_wrong', upn: 'a@b' })
      .expect(401);
  });

  it('refuses a loopback directory without CERTSVC_IDENTITY_DIRECTORY_EGRESS_ALLOW_LOCAL_DIAL', async () => {
    const res = await t.http
      .put('/api/v1/settings/identity-directory')
      .set(...bearer(admin.accessToken))
      .send({
        enabled: true,
        url: 'ldap://127.0.0.1:389',
        bind_dn: BIND_DN,
        bind_password: 'x',
        base_dn: BASE,
      })
      .expect(400);
    expect(res.body.code).toBe('identity_directory_settings_invalid');
    expect(res.body.message).toContain('request-forgery guard');
  });
});
