import { sql } from '../fixtures/enroll';
import { ADMIN_EMAIL, type TestApp } from '../support/test-app';
import {
  callBroker,
  opensslSelfSigned,
  startBrokerLab,
  tempDir,
  type BrokerLab,
  type ClientIdentity,
} from './k8s-support';

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
  let port: number;
  let serverCa: string;
  let me: ClientIdentity;
  let ask: BrokerLab['ask'];
  afterAll(async () => {
    await t?.close();
    tmp.cleanup();
  });

  beforeAll(async () => {
    const lab = await startBrokerLab(tmp.dir, {
      clusters: [
        {
          name: 'dev',
          server_url: 'https://127.0.0.1:6443',
          groups: [{ source: 'any', value: '', group: 'developers' }],
        },
        { name: 'off', server_url: 'https://10.1.1.1', enabled: false },
      ],
    });
    ({ t, port, serverCaPem: serverCa, me, ask } = lab);
  });

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
