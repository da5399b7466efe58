import { generateKeyPairSync } from 'node:crypto';
import { sql } from '../fixtures/enroll';
import { K8sBrokerServer } from '../../src/modules/k8s/k8s-broker.server';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../support/test-app';
import {
  brokerEnv,
  callBroker,
  opensslSelfSigned,
  tempDir,
  userMtlsCertificate,
  type ClientIdentity,
} from './k8s-support';

function publicKeyPem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .publicKey.export({ format: 'pem', type: 'spki' })
    .toString();
}

interface AuditRow {
  action: string;
  actor: string;
  actor_kind: string;
  target: string | null;
  details: Record<string, unknown>;
}

describe('Kubernetes credential broker - audit records and certsvc_k8s_credentials_total', () => {
  const tmp = tempDir();
  let t: TestApp;
  let admin: TestUser;
  let port: number;
  let serverCa: string;
  let me: ClientIdentity;
  afterAll(async () => {
    await t?.close();
    tmp.cleanup();
  });

  beforeAll(async () => {
    const broker = brokerEnv(tmp.dir);
    serverCa = broker.serverCaPem;
    t = await startTestApp({ env: broker.env });
    port = t.app.get(K8sBrokerServer).port() as number;
    admin = await loginAdmin(t);
    await t.http
      .post('/api/v1/admin/k8s-clusters')
      .set(...bearer(admin.accessToken))
      .send({
        name: 'dev',
        server_url: 'https://127.0.0.1:6443',
        ca_bundle: serverCa,
        groups: [{ source: 'any', value: '', group: 'developers' }],
      })
      .expect(201);
    await t.http
      .post('/api/v1/admin/k8s-clusters')
      .set(...bearer(admin.accessToken))
      .send({ name: 'off', server_url: 'https://10.1.1.1', ca_bundle: serverCa, enabled: false })
      .expect(201);
    me = await userMtlsCertificate(t, admin.accessToken, ADMIN_EMAIL);
  });

  const ask = (client: ClientIdentity | undefined, body: Record<string, unknown> = {}) =>
    callBroker(port, serverCa, client, { cluster: 'dev', public_key: publicKeyPem(), ...body });
  const audit = () =>
    sql<AuditRow>(
      t,
      `SELECT action, actor, actor_kind, target, details FROM audit_log
        WHERE action LIKE 'k8s_credential.%' ORDER BY id`,
    );
  const counter = async (cluster: string, result: string) => {
    const text = (await t.http.get('/metrics').expect(200)).text;
    const line = text
      .split('\n')
      .find((l) =>
        l.startsWith(`certsvc_k8s_credentials_total{cluster="${cluster}",result="${result}"}`),
      );
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  it('audits and counts an issued credential', async () => {
    const res = await ask(me);
    expect(res.status).toBe(201);
    expect(await audit()).toEqual([
      {
        action: 'k8s_credential.issue',
        actor: ADMIN_EMAIL,
        actor_kind: 'user',
        target: res.body.serial,
        details: {
          cluster: 'dev',
          groups: ['developers'],
          expires_at: res.body.expires_at,
          client_certificate_serial: me.serial,
          prompt: 'once_per_window',
        },
      },
    ]);
    expect(await counter('dev', 'issued')).toBe(1);
  });

  it('audits and counts refusals of identified callers, with the code', async () => {
    const disabled = await ask(me, { cluster: 'off' });
    expect(disabled.status).toBe(403);
    const unknown = await ask(me, { cluster: 'nope' });
    expect(unknown.status).toBe(404);
    const badBody = await callBroker(port, serverCa, me, { cluster: 'dev' });
    expect(badBody.status).toBe(400);
    const refusals = (await audit()).filter((r) => r.action === 'k8s_credential.refuse');
    expect(refusals).toEqual([
      {
        action: 'k8s_credential.refuse',
        actor: ADMIN_EMAIL,
        actor_kind: 'user',
        target: 'off',
        details: {
          code: 'k8s_cluster_disabled',
          cluster: 'off',
          client_certificate_serial: me.serial,
        },
      },
      {
        action: 'k8s_credential.refuse',
        actor: ADMIN_EMAIL,
        actor_kind: 'user',
        target: null,
        details: {
          code: 'k8s_cluster_not_found',
          cluster: null,
          client_certificate_serial: me.serial,
        },
      },
      {
        action: 'k8s_credential.refuse',
        actor: 'system',
        actor_kind: 'system',
        target: null,
        details: { code: 'invalid_request', cluster: null, client_certificate_serial: me.serial },
      },
    ]);
    expect(await counter('off', 'k8s_cluster_disabled')).toBe(1);
    expect(await counter('', 'k8s_cluster_not_found')).toBe(1);
    expect(await counter('', 'invalid_request')).toBe(1);
  });

  it('counts, but does not audit, callers without a certificate of the service', async () => {
    const before = (await audit()).length;
    const none = await ask(undefined);
    expect(none.status).toBe(401);
    const foreign = await ask(opensslSelfSigned(tmp.dir, 'stranger'));
    expect(foreign.status).toBe(401);
    expect(await audit()).toHaveLength(before);
    expect(await counter('', 'k8s_client_certificate_required')).toBe(1);
    expect(await counter('', 'k8s_client_certificate_invalid')).toBe(1);
  });
});
