import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { selfSignedTlsIdentity } from '@platform/pki/testing';
import { sql, startEnrollApp, uniqueSerial } from '../fixtures/enroll';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { sidBytes } from '../../src/modules/identity-sid/object-sid';
import { LdapStandIn } from './ldap-stand-in';

const BASE = 'dc=corp,dc=example';
const BIND_DN = `cn=svc-certsvc,ou=service,${BASE}`;
const BIND_PASSWORD = 'tls-bind-Secret-91a2';
const ALICE_SID = 'S-1-5-21-1004336348-1177238915-682003330-1105';

describe('Identity SID - ldaps with a configured CA, timeouts', () => {
  let t: TestApp;
  let admin: TestUser;
  let directory: LdapStandIn;
  let silent: Server;
  let silentPort: number;
  const sockets: Socket[] = [];
  const identity = selfSignedTlsIdentity('127.0.0.1');
  const device = {
    serial: uniqueSerial('SIDTLS'),
    token: `wet_${randomBytes(24).toString('base64url')}`,
  };

  const put = (body: Record<string, unknown>) =>
    t.http
      .put('/api/v1/settings/identity-directory')
      .set(...bearer(admin.accessToken))
      .send({
        enabled: true,
        bind_dn: BIND_DN,
        bind_password: BIND_PASSWORD,
        base_dn: BASE,
        ...body,
      });
  const ask = () =>
    t.http
      .post('/api/v1/enroll/identity-sid')
      .send({ serial: device.serial, enrollment_token: device.token, upn: 'alice@corp.example' });

  beforeAll(async () => {
    directory = await LdapStandIn.start({
      baseDn: BASE,
      bindDn: BIND_DN,
      bindPassword: BIND_PASSWORD,
      entries: [
        {
          dn: `cn=alice,ou=people,${BASE}`,
          attributes: { userPrincipalName: 'alice@corp.example', objectSid: sidBytes(ALICE_SID) },
        },
      ],
      tls: { certificate: identity.certPem, key: identity.keyPem },
    });
    // accepts connections and never answers: only the deadline ends a look-up
    silent = createServer((socket) => sockets.push(socket));
    silentPort = await new Promise<number>((resolve) =>
      silent.listen(0, '127.0.0.1', () => resolve((silent.address() as AddressInfo).port)),
    );
    t = await startEnrollApp({
      env: {
        CERTSVC_SCEP_ENC_KEY: '5a'.repeat(32),
        CERTSVC_IDENTITY_DIRECTORY_EGRESS_ALLOW_LOCAL_DIAL: 'true',
      },
    });
    admin = await loginAdmin(t);
    await sql(
      t,
      `INSERT INTO devices (id, serial, enrollment_token_hash, assigned_purposes, identity_key)
       VALUES ($1, $2, $3, '{wifi}', $4)`,
      [
        randomUUID(),
        device.serial,
        createHash('sha256').update(device.token).digest('hex'),
        `sn:${device.serial}`,
      ],
    );
  });
  afterAll(async () => {
    await t.close();
    await directory.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('answers over ldaps when the server certificate chains to ca_pem, by IP and by name', async () => {
    await put({ url: directory.url('ldaps'), ca_pem: identity.certPem }).expect(200);
    expect((await ask().expect(200)).body.sid).toBe(ALICE_SID);
    // by name: resolved and checked by the egress guard, the certificate verified for localhost
    await put({ url: directory.url('ldaps', 'localhost'), ca_pem: identity.certPem }).expect(200);
    expect((await ask().expect(200)).body.sid).toBe(ALICE_SID);
  });

  it('answers 503 when the certificate is not trusted: system roots, or another CA', async () => {
    await put({ url: directory.url('ldaps'), ca_pem: null }).expect(200);
    expect((await ask().expect(503)).body.code).toBe('identity_directory_unavailable');
    const other = selfSignedTlsIdentity('127.0.0.1');
    await put({ url: directory.url('ldaps'), ca_pem: other.certPem }).expect(200);
    expect((await ask().expect(503)).body.code).toBe('identity_directory_unavailable');
    const test = await t.http
      .post('/api/v1/settings/identity-directory/test-connection')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(test.body.ok).toBe(false);
    expect(test.body.steps).toContainEqual(expect.objectContaining({ step: 'connect', ok: false }));
  });

  it('refuses ca_pem on a plain ldap URL', async () => {
    const res = await put({ url: directory.url('ldap'), ca_pem: identity.certPem }).expect(400);
    expect(res.body.message).toContain('ca_pem');
  });

  it('ends a look-up at timeout_ms when the server never answers (503, not a hang)', async () => {
    await put({ url: `ldap://127.0.0.1:${silentPort}`, timeout_ms: 600 }).expect(200);
    const started = Date.now();
    expect((await ask().expect(503)).body.code).toBe('identity_directory_unavailable');
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(500);
    expect(took).toBeLessThan(5000);
  });
});
