import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import * as pkijs from 'pkijs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toPem } from '@platform/pki';
import { TpmRootsService } from '../../src/modules/tpm-roots/tpm-roots.service';
import { sql } from '../fixtures/enroll';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import { createTpmStateWithEkCert, type SwtpmEkState } from '../support/swtpm-ek';
import { startTestApp, type TestApp } from '../support/test-app';
import { CA_EXTENSIONS, opensslCertificate, resigned } from './openssl-certs';

interface RootBody {
  id: string;
  name: string;
  subject: string;
  fingerprint_sha256: string;
  not_before: string;
  not_after: string;
  certificate_pem: string;
  created_by: string;
  created_at: string;
}

describe('TPM vendor roots - /api/v1/settings/tpm-roots and the EK check', () => {
  let t: TestApp;
  let admin: TestUser;
  let dir: string;
  let tpm: SwtpmEkState;
  let service: TpmRootsService;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tpm-roots-'));
    [t, tpm] = await Promise.all([startTestApp(), createTpmStateWithEkCert(join(dir, 'tpm'))]);
    admin = await loginAdmin(t);
    service = t.app.get(TpmRootsService);
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const api = (method: 'get' | 'post' | 'delete', path = '', token = admin.accessToken) =>
    t.http[method](`/api/v1/settings/tpm-roots${path}`).set(...bearer(token));
  const add = (body: Record<string, unknown>) => api('post').send(body);
  const audit = (action: string, id: string) =>
    sql<{ actor: string; details: Record<string, unknown> }>(
      t,
      `SELECT actor, details FROM audit_log WHERE action = $1 AND target = $2`,
      [action, id],
    );
  const verify = () => service.verifyEkCertificate(tpm.ekCertDer, tpm.intermediatesDer);

  it('adds a root, lists it, audits it, and EK certificates under it verify; removing it ends that', async () => {
    expect(await verify()).toEqual({ ok: false, reason: 'no_roots' });

    const created = (
      await add({ name: 'swtpm local root', certificate_pem: tpm.vendorRootPem }).expect(201)
    ).body as RootBody;
    const root = new X509Certificate(tpm.vendorRootPem);
    expect(created).toMatchObject({
      name: 'swtpm local root',
      subject: 'CN=swtpm-localca-rootca',
      fingerprint_sha256: root.fingerprint256.replace(/:/g, '').toLowerCase(),
      not_before: new Date(root.validFrom).toISOString(),
      not_after: new Date(root.validTo).toISOString(),
      created_by: admin.email,
    });
    expect(new X509Certificate(created.certificate_pem).raw.equals(root.raw)).toBe(true);

    const list = (await api('get').expect(200)).body as { items: RootBody[] };
    expect(list.items).toEqual([created]);
    const [record] = await audit('settings.tpm_root_add', created.id);
    expect(record).toMatchObject({
      actor: admin.email,
      details: {
        name: 'swtpm local root',
        fingerprint_sha256: created.fingerprint_sha256,
        self_signed: true,
      },
    });

    const verified = await verify();
    expect(verified).toMatchObject({ ok: true, rootId: created.id, rootName: 'swtpm local root' });
    if (verified.ok) {
      expect(verified.serialHex).toMatch(/^([0-9a-f]{2})+$/);
      expect(verified.ekCertDer.equals(tpm.ekCertDer)).toBe(true);
    }
    expect(await service.verifyEkCertificate(tpm.ekCertDer, [])).toEqual({
      ok: false,
      reason: 'untrusted',
    });

    await api('delete', `/${created.id}`).expect(204);
    const [removed] = await audit('settings.tpm_root_remove', created.id);
    expect(removed).toMatchObject({ actor: admin.email, details: { name: 'swtpm local root' } });
    expect((await api('get').expect(200)).body).toEqual({ items: [] });
    expect(await verify()).toEqual({ ok: false, reason: 'no_roots' });
    const again = await api('delete', `/${created.id}`).expect(404);
    expect(again.body).toMatchObject({ code: 'tpm_root_not_found' });
  });

  it('refuses the same certificate twice with 409 tpm_root_exists, however the PEM is wrapped', async () => {
    const other = await createTpmStateWithEkCert(join(dir, 'dup'));
    const first = await add({ name: 'dup', certificate_pem: other.vendorRootPem }).expect(201);
    const crlf = other.vendorRootPem.replace(/\n/g, '\r\n');
    const res = await add({ name: 'dup again', certificate_pem: `\n${crlf}\n` }).expect(409);
    expect(res.body).toMatchObject({ code: 'tpm_root_exists' });
    // the intermediate of the same local CA is a CA certificate of its own: accepted as an anchor
    const intermediatePem = toPem('CERTIFICATE', other.intermediatesDer[0]);
    await add({ name: 'dup intermediate', certificate_pem: intermediatePem }).expect(201);
    const rows = (await api('get').expect(200)).body as { items: RootBody[] };
    expect(rows.items.map((r) => r.name)).toEqual(['dup', 'dup intermediate']);
    for (const r of rows.items) await api('delete', `/${r.id}`).expect(204);
    expect((first.body as RootBody).id).toBeTruthy();
  });

  it('lets exactly one of two concurrent adds of the same certificate win', async () => {
    const other = await createTpmStateWithEkCert(join(dir, 'race'));
    const body = { name: 'race', certificate_pem: other.vendorRootPem };
    const answers = await Promise.all([add(body), add(body)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const winner = answers.find((r) => r.status === 201)!.body as RootBody;
    expect(await audit('settings.tpm_root_add', winner.id)).toHaveLength(1);
    await api('delete', `/${winner.id}`).expect(204);
  });

  it('refuses what is no CA certificate with 400 tpm_root_invalid naming the problem', async () => {
    const ekPem = toPem('CERTIFICATE', tpm.ekCertDer);
    const cases: [string, RegExp][] = [
      ['hello', /no PEM CERTIFICATE block/],
      [ekPem, /not a CA certificate/],
      [
        tpm.vendorRootPem + toPem('CERTIFICATE', tpm.intermediatesDer[0]),
        /one certificate per request/,
      ],
      [
        generateKeyPairSync('ec', { namedCurve: 'P-256' })
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString(),
        /a PEM PRIVATE KEY block is not a certificate/,
      ],
      ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', /not a well-formed X.509/],
      [
        '-----BEGIN CERTIFICATE-----\nA=A=\n-----END CERTIFICATE-----\n',
        /invalid base64|well-formed/,
      ],
      [`junk before\n${tpm.vendorRootPem}`, /text outside the PEM block/],
    ];
    for (const [pem, problem] of cases) {
      const res = await add({ name: 'bad', certificate_pem: pem }).expect(400);
      expect(res.body).toMatchObject({ code: 'tpm_root_invalid' });
      expect((res.body as { message: string }).message).toMatch(problem);
    }
    const noName = await add({ certificate_pem: tpm.vendorRootPem }).expect(400);
    expect(noName.body).toMatchObject({ code: 'invalid_request' });
    await add({ name: '   ', certificate_pem: tpm.vendorRootPem }).expect(400);
    await add({ name: 'big', certificate_pem: 'A'.repeat(20_000) }).expect(400);
    expect((await api('get').expect(200)).body).toEqual({ items: [] });
  });

  it('refuses expired, future, self-signature-broken and not-understood CAs; accepts a v1 root', async () => {
    const certs = join(dir, 'openssl');
    await mkdir(certs, { recursive: true });
    const make = (subject: string, extensions?: string, days?: number) =>
      opensslCertificate(certs, { subject, extensions, days });
    const expired = await make('/CN=Expired TPM Root', CA_EXTENSIONS, -1);
    const valid = await make('/CN=Valid TPM Root', CA_EXTENSIONS);
    const stranger = await make('/CN=Stranger', CA_EXTENSIONS);
    const future = await resigned(certs, valid.der, valid, (cert) => {
      cert.notBefore = new pkijs.Time({ type: 0, value: new Date(Date.now() + 86_400_000) });
    });
    const forged = await resigned(certs, valid.der, stranger, () => undefined);
    const critical = await make('/CN=Odd TPM Root', `${CA_EXTENSIONS}1.2.3.4=critical,ASN1:NULL\n`);
    const signOnly = await make(
      '/CN=Sign-only',
      'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,digitalSignature\n',
    );
    const cases: [string, RegExp][] = [
      [expired.pem, /it has expired/],
      [toPem('CERTIFICATE', future), /not valid yet/],
      [toPem('CERTIFICATE', forged), /self-signature does not verify/],
      [critical.pem, /critical extension/],
      [signOnly.pem, /not a CA certificate/],
    ];
    for (const [pem, problem] of cases) {
      const res = await add({ name: 'bad', certificate_pem: pem }).expect(400);
      expect(res.body).toMatchObject({ code: 'tpm_root_invalid' });
      expect((res.body as { message: string }).message).toMatch(problem);
    }
    const v1 = await make('/CN=Old TPM Root');
    const created = (await add({ name: 'v1', certificate_pem: v1.pem }).expect(201))
      .body as RootBody;
    expect(created.subject).toBe('CN=Old TPM Root');
    await api('delete', `/${created.id}`).expect(204);
  });

  it('answers 404 tpm_root_not_found for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%27']) {
      const res = await api('delete', `/${id}`).expect(404);
      expect(res.body).toMatchObject({ code: 'tpm_root_not_found' });
    }
  });

  it('is cert-admin only, reading included', async () => {
    const viewer = await createUser(t, admin, ['cert-viewer']);
    const approver = await createUser(t, admin, ['cert-approver']);
    for (const user of [viewer, approver]) {
      await api('get', '', user.accessToken).expect(403);
      await add({ name: 'x', certificate_pem: tpm.vendorRootPem })
        .set(...bearer(user.accessToken))
        .expect(403);
      await api('delete', '/00000000-0000-4000-8000-000000000000', user.accessToken).expect(403);
    }
    await t.http.get('/api/v1/settings/tpm-roots').expect(401);
    expect((await api('get').expect(200)).body).toEqual({ items: [] });
  });
});
