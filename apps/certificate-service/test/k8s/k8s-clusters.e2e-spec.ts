import { execFileSync } from 'node:child_process';
import { DataSource } from 'typeorm';
import {
  certificatesFromPem,
  generateCaMaterial,
  loadIssuingCa,
  parseKeyEncryptionKey,
} from '@platform/pki';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, TEST_CA_KEY_ENC_KEY, type TestApp } from '../support/test-app';

const KEK = parseKeyEncryptionKey(TEST_CA_KEY_ENC_KEY);

/** The CA an API server's TLS certificate chains to (any real CA certificate will do). */
function apiServerCaPem(): string {
  return generateCaMaterial(KEK, { rootCommonName: 'apiserver CA' }).root.certificatePem;
}

function opensslText(pem: string, ...args: string[]): string {
  return execFileSync('openssl', ['x509', '-noout', ...args], { input: pem }).toString();
}

interface ClusterBody {
  id: string;
  name: string;
  server_url: string;
  ca_bundle: string;
  client_ca_pem: string;
  groups: { source: string; value: string; group: string }[];
  enabled: boolean;
  created_by: string;
}

describe('Kubernetes cluster registry', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>) =>
    t.http
      .post('/api/v1/admin/k8s-clusters')
      .set(...bearer(admin.accessToken))
      .send(body);

  it('registers a cluster with its own client-certificate CA, sealed in the database', async () => {
    const caBundle = apiServerCaPem();
    const res = await create({
      name: 'prod-eu',
      server_url: 'https://k8s.example.com:6443/',
      ca_bundle: caBundle,
      groups: [
        { source: 'role', value: 'cert-admin', group: 'system:masters' },
        { source: 'any', value: '', group: 'developers' },
      ],
    }).expect(201);
    const body = res.body as ClusterBody;
    expect(body).toMatchObject({
      name: 'prod-eu',
      server_url: 'https://k8s.example.com:6443',
      enabled: true,
      created_by: admin.email,
      groups: [
        { source: 'role', value: 'cert-admin', group: 'system:masters' },
        { source: 'any', value: '', group: 'developers' },
      ],
    });
    expect(certificatesFromPem(body.ca_bundle)).toEqual(certificatesFromPem(caBundle));

    // client_ca_pem: the cluster's issuing CA, then its root; a CA, named after the cluster.
    const [issuingDer, rootDer] = certificatesFromPem(body.client_ca_pem);
    const [issuingPem, rootPem] = body.client_ca_pem.match(
      /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g,
    ) ?? ['', ''];
    expect(opensslText(issuingPem, '-subject')).toContain('Kubernetes prod-eu client CA');
    expect(opensslText(issuingPem, '-issuer')).toContain('Kubernetes prod-eu client Root CA');
    expect(opensslText(issuingPem, '-ext', 'basicConstraints')).toContain('CA:TRUE');
    expect(opensslText(rootPem, '-subject')).toContain('Kubernetes prod-eu client Root CA');

    // Private keys only sealed with CERTSVC_CA_KEY_ENC_KEY, and they match the certificates.
    const ds = t.app.get(DataSource);
    const [row] = (await ds.query(
      `SELECT client_ca_root_encrypted_key AS root, client_ca_issuing_encrypted_key AS issuing,
              client_ca_issuing_der AS issuing_der
         FROM k8s_clusters WHERE id = $1`,
      [body.id],
    )) as { root: string; issuing: string; issuing_der: Buffer }[];
    expect(row.root).toMatch(/^v1:/);
    expect(row.issuing).toMatch(/^v1:/);
    expect(row.issuing_der.equals(issuingDer)).toBe(true);
    const loaded = loadIssuingCa(
      {
        formatVersion: 1,
        root: { certificateDer: rootDer, certificatePem: rootPem, encryptedPrivateKey: row.root },
        issuing: {
          certificateDer: issuingDer,
          certificatePem: issuingPem,
          encryptedPrivateKey: row.issuing,
        },
        createdAt: new Date(),
      },
      KEK,
    );
    expect(loaded.certificateDer.equals(issuingDer)).toBe(true);

    // Each cluster gets its own CA.
    const other = await create({
      name: 'staging',
      server_url: 'https://10.0.0.1',
      ca_bundle: caBundle,
    }).expect(201);
    expect((other.body as ClusterBody).client_ca_pem).not.toBe(body.client_ca_pem);
    expect((other.body as ClusterBody).groups).toEqual([]);

    const list = await t.http
      .get('/api/v1/admin/k8s-clusters')
      .set(...bearer(admin.accessToken))
      .expect(200);
    const names = (list.body as { items: ClusterBody[] }).items.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['prod-eu', 'staging']));

    const audit = (await ds.query(`SELECT action FROM audit_log WHERE target = $1 ORDER BY at`, [
      body.id,
    ])) as { action: string }[];
    expect(audit.map((a) => a.action)).toEqual(['k8s_cluster.create']);
  });

  it('refuses a duplicate name, a non-https URL and a bundle without certificates', async () => {
    const ca = apiServerCaPem();
    await create({ name: 'dup', server_url: 'https://a.example', ca_bundle: ca }).expect(201);
    const dup = await create({ name: 'dup', server_url: 'https://b.example', ca_bundle: ca });
    expect([dup.status, dup.body.code]).toEqual([409, 'k8s_cluster_exists']);

    for (const url of ['http://a.example', 'https://u:p@a.example', 'https://a.example/?x=1']) {
      const res = await create({ name: 'bad-url', server_url: url, ca_bundle: ca });
      expect([url, res.status, res.body.code]).toEqual([url, 400, 'k8s_server_url_invalid']);
    }
    const broken = ca.replace(/\n[A-Za-z0-9+/]{20}/, '\nAAAAAAAAAAAAAAAAAAAA');
    for (const bundle of ['not a pem', broken]) {
      const res = await create({
        name: 'bad-ca',
        server_url: 'https://a.example',
        ca_bundle: bundle,
      });
      expect([res.status, res.body.code]).toEqual([400, 'k8s_ca_bundle_invalid']);
    }
    const badGroup = await create({
      name: 'bad-group',
      server_url: 'https://a.example',
      ca_bundle: ca,
      groups: [{ source: 'role', value: 'x', group: 'O=evil,CN=x' }],
    });
    expect([badGroup.status, badGroup.body.code]).toEqual([400, 'invalid_request']);
  });

  it('refuses a create without one of its required fields with 400 naming it (the fuzz found 500s)', async () => {
    const full = { name: 'partial', server_url: 'https://a.example', ca_bundle: apiServerCaPem() };
    for (const field of ['name', 'server_url', 'ca_bundle'] as const) {
      const body: Record<string, string> = { ...full };
      delete body[field];
      const res = await create(body);
      expect([field, res.status, res.body.code]).toEqual([field, 400, 'invalid_request']);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    const listed = await t.http.get('/api/v1/admin/k8s-clusters').set(...bearer(admin.accessToken));
    expect(JSON.stringify(listed.body)).not.toContain('"partial"');
  });

  it('changes and deletes a cluster; unknown ids are 404', async () => {
    const ca = apiServerCaPem();
    const created = (
      await create({ name: 'change-me', server_url: 'https://c.example', ca_bundle: ca }).expect(
        201,
      )
    ).body as ClusterBody;
    const put = (id: string, body: Record<string, unknown>) =>
      t.http
        .put(`/api/v1/admin/k8s-clusters/${id}`)
        .set(...bearer(admin.accessToken))
        .send(body);

    const changed = (
      await put(created.id, {
        name: 'changed',
        enabled: false,
        groups: [{ source: 'user', value: 'a@example.com', group: 'ops' }],
      }).expect(200)
    ).body as ClusterBody;
    expect(changed).toMatchObject({
      id: created.id,
      name: 'changed',
      enabled: false,
      server_url: 'https://c.example',
      client_ca_pem: created.client_ca_pem,
      groups: [{ source: 'user', value: 'a@example.com', group: 'ops' }],
    });

    await create({ name: 'taken', server_url: 'https://d.example', ca_bundle: ca }).expect(201);
    const clash = await put(created.id, { name: 'taken' });
    expect([clash.status, clash.body.code]).toEqual([409, 'k8s_cluster_exists']);
    const badUrl = await put(created.id, { server_url: 'ftp://x' });
    expect([badUrl.status, badUrl.body.code]).toEqual([400, 'k8s_server_url_invalid']);

    await t.http
      .delete(`/api/v1/admin/k8s-clusters/${created.id}`)
      .set(...bearer(admin.accessToken))
      .expect(204);
    for (const id of [created.id, 'not-a-uuid']) {
      const gone = await put(id, { enabled: true });
      expect([gone.status, gone.body.code]).toEqual([404, 'k8s_cluster_not_found']);
      const del = await t.http
        .delete(`/api/v1/admin/k8s-clusters/${id}`)
        .set(...bearer(admin.accessToken));
      expect([del.status, del.body.code]).toEqual([404, 'k8s_cluster_not_found']);
    }
  });
});
