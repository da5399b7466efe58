import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  LeafCertificateBuilder,
  loadIssuingCa,
  parseKeyEncryptionKey,
  toPem,
  type CaMaterial,
} from '@platform/pki';
import { sql } from '../fixtures/enroll';
import { CaMaterialRepository } from '../../src/modules/ca/ca-material.repository';
import { bearer, type TestUser } from '../support/sessions';
import { ADMIN_EMAIL, TEST_CA_KEY_ENC_KEY, type TestApp } from '../support/test-app';
import {
  callBroker,
  opensslSelfSigned,
  startBrokerLab,
  tempDir,
  userMtlsCertificate,
  type BrokerAnswer,
  type BrokerLab,
  type ClientIdentity,
} from './k8s-support';

function x509(pem: string, ...args: string[]): string {
  return execFileSync('openssl', ['x509', '-noout', ...args], { input: pem }).toString();
}

/** A user_mtls certificate signed by the service's real issuing CA, expired a year ago. */
async function expiredUserMtls(t: TestApp): Promise<ClientIdentity> {
  const material = (await t.app.get(CaMaterialRepository).load()) as CaMaterial;
  const ca = loadIssuingCa(material, parseKeyEncryptionKey(TEST_CA_KEY_ENC_KEY));
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const leaf = new LeafCertificateBuilder({ ...ca, notBefore: new Date(0) }).issue({
    purpose: 'user_mtls',
    subjectCommonName: ADMIN_EMAIL,
    publicKeySpkiDer: keys.publicKey.export({ format: 'der', type: 'spki' }),
    keyAlgorithm: 'ec',
    now: new Date(Date.now() - 2 * 365 * 86_400_000),
  });
  return {
    certPem: toPem('CERTIFICATE', leaf.certificateDer),
    keyPem: keys.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

describe('Kubernetes credential broker (mutual TLS listener)', () => {
  const tmp = tempDir();
  let t: TestApp;
  let admin: TestUser;
  let port: number;
  let serverCa: string;
  let clientCaPem: string;
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
          groups: [
            { source: 'role', value: 'cert-admin', group: 'system:masters' },
            { source: 'any', value: '', group: 'developers' },
            { source: 'role', value: 'cert-viewer', group: 'viewers' },
            { source: 'user', value: ADMIN_EMAIL.toUpperCase(), group: 'admin-person' },
          ],
        },
        { name: 'off', server_url: 'https://10.1.1.1', enabled: false },
      ],
    });
    ({ t, admin, port, serverCaPem: serverCa, me, ask } = lab);
    clientCaPem = lab.clusters[0].client_ca_pem;
  });

  it('issues a 10-minute credential: CN = user, O = mapped groups, signed by the cluster CA', async () => {
    const res = await ask(me);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      user: ADMIN_EMAIL,
      groups: ['system:masters', 'developers', 'admin-person'],
      prompt: 'once_per_window',
      cluster: { name: 'dev', server_url: 'https://127.0.0.1:6443', ca_bundle: serverCa },
    });
    const pem = res.body.client_certificate_pem as string;
    const subject = x509(pem, '-subject', '-nameopt', 'RFC2253');
    expect(subject).toContain(`CN=${ADMIN_EMAIL}`);
    expect(subject).toContain('O=system:masters');
    expect(subject).toContain('O=developers');
    expect(subject).toContain('O=admin-person');
    expect(subject).not.toContain('O=viewers');
    expect(x509(pem, '-issuer')).toContain('Kubernetes dev client CA');
    expect(x509(pem, '-ext', 'extendedKeyUsage')).toContain('TLS Web Client Authentication');
    const dates = x509(pem, '-startdate', '-enddate');
    const start = Date.parse(/notBefore=(.*)/.exec(dates)?.[1] ?? '');
    const end = Date.parse(/notAfter=(.*)/.exec(dates)?.[1] ?? '');
    expect(end - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(end - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(end - start).toBe(11 * 60_000); // 60 s of clock skew before issuance + 600 s
    expect(new Date(end).toISOString()).toBe(res.body.expires_at);
    writeFileSync(join(tmp.dir, 'client-ca.pem'), clientCaPem);
    writeFileSync(join(tmp.dir, 'cred.pem'), pem);
    const verified = execFileSync('openssl', [
      'verify',
      '-CAfile',
      join(tmp.dir, 'client-ca.pem'),
      '-purpose',
      'sslclient',
      join(tmp.dir, 'cred.pem'),
    ]).toString();
    expect(verified).toContain('OK');
    // No request row and no approval: the certificate table is unchanged by broker calls.
    const before = await sql(t, 'SELECT count(*)::int AS n FROM certificate_requests');
    await ask(me);
    expect(await sql(t, 'SELECT count(*)::int AS n FROM certificate_requests')).toEqual(before);
  });

  it('refuses without a client certificate, with another CA, expired, or revoked', async () => {
    const none = await ask(undefined);
    expect([none.status, none.body.code]).toEqual([401, 'k8s_client_certificate_required']);

    const foreign = opensslSelfSigned(tmp.dir, ADMIN_EMAIL);
    const other = await ask(foreign);
    expect([other.status, other.body.code]).toEqual([401, 'k8s_client_certificate_invalid']);

    const expired = await ask(await expiredUserMtls(t));
    expect([expired.status, expired.body.code]).toEqual([401, 'k8s_client_certificate_expired']);

    const revoked = await userMtlsCertificate(t, admin.accessToken, 'revoked@certsvc.test');
    expect((await ask(revoked)).status).toBe(201);
    await t.http
      .post(`/api/v1/certificates/${revoked.serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'superseded' })
      .expect(200);
    const gone = await ask(revoked);
    expect([gone.status, gone.body.code]).toEqual([403, 'k8s_client_certificate_revoked']);
  });

  it('refuses an unknown or disabled cluster and a bad public key', async () => {
    const unknown = await ask(me, { cluster: 'nope' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'k8s_cluster_not_found']);
    const disabled = await ask(me, { cluster: 'off' });
    expect([disabled.status, disabled.body.code]).toEqual([403, 'k8s_cluster_disabled']);
    const badKey = await ask(me, { public_key: 'garbage' });
    expect([badKey.status, badKey.body.code]).toEqual([400, 'k8s_public_key_invalid']);
  });

  it('the prompt step is a system setting (k8s_prompt_step), changed at runtime and audited', async () => {
    const settings = () =>
      t.http
        .get('/api/v1/settings/system')
        .set(...bearer(admin.accessToken))
        .expect(200);
    const put = (step: string) =>
      t.http
        .put('/api/v1/settings/system')
        .set(...bearer(admin.accessToken))
        .send({ k8s_prompt_step: step });
    // Until set, the deployment default (CERTSVC_K8S_PROMPT_STEP, here its default).
    expect((await settings()).body).toMatchObject({ k8s_prompt_step: 'ask_once_per_window' });
    await put('sometimes').expect(400);
    await put('raised').expect(200);
    expect((await settings()).body).toMatchObject({ k8s_prompt_step: 'raised' });
    const refused = await ask(me, { prompt_available: false });
    expect([refused.status, refused.body.code]).toEqual([403, 'k8s_prompt_unavailable']);
    expect((await ask(me, { prompt_available: true })).body.prompt).toBe('every_time');
    await put('off').expect(200);
    const off = await ask(me, { prompt_available: false });
    expect([off.status, off.body.prompt]).toEqual([201, 'none']);
    const [change] = await sql<{ details: { old: { k8s: unknown }; new: { k8s: unknown } } }>(
      t,
      `SELECT details FROM audit_log WHERE action = 'settings.system_change' ORDER BY id DESC LIMIT 1`,
    );
    expect(change.details.old.k8s).toEqual({ prompt_step: 'raised' });
    expect(change.details.new.k8s).toEqual({ prompt_step: 'off' });
    await put('ask_once_per_window').expect(200);
  });

  it('is not served on the main listener, and the broker serves nothing else', async () => {
    await t.http.post('/api/v1/k8s/credential').send({ cluster: 'dev' }).expect(404);
    const elsewhere = await callBroker(port, serverCa, me, {}, '/api/v1/admin/k8s-clusters');
    expect(elsewhere.status).toBe(404);
    const flags = (await t.http.get('/api/v1/features').expect(200)).body as { k8s: boolean };
    expect(flags.k8s).toBe(true);
  });
});

describe('Kubernetes credential broker - prompt-on-issuance step', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  async function withStep(
    step: string,
    check: (ask: (body: Record<string, unknown>) => Promise<BrokerAnswer>) => Promise<void>,
  ) {
    const lab = await startBrokerLab(tmp.dir, {
      env: { CERTSVC_K8S_PROMPT_STEP: step },
      clusters: [{ name: 'dev', server_url: 'https://127.0.0.1:6443' }],
    });
    try {
      await check((body) => lab.ask(lab.me, body));
    } finally {
      await lab.t.close();
    }
  }

  it('raised: refuses when the caller declares no session can ask, asks every time otherwise', async () => {
    await withStep('raised', async (ask) => {
      const refused = await ask({ prompt_available: false });
      expect([refused.status, refused.body.code]).toEqual([403, 'k8s_prompt_unavailable']);
      const asked = await ask({ prompt_available: true });
      expect([asked.status, asked.body.prompt]).toEqual([201, 'every_time']);
    });
  });

  it('off and ask_every_time: issued without a session, with the matching flag', async () => {
    await withStep('off', async (ask) => {
      const res = await ask({ prompt_available: false });
      expect([res.status, res.body.prompt]).toEqual([201, 'none']);
    });
    await withStep('ask_every_time', async (ask) => {
      const res = await ask({ prompt_available: false });
      expect([res.status, res.body.prompt]).toEqual([201, 'every_time']);
    });
  });
});
