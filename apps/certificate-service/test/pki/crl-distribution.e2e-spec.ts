import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { issuedDevice } from '../fixtures/issue';
import { bundleOf, type Bundle } from '../issuance/issuance-support';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import { DataSource } from 'typeorm';
import { CrlService } from '../../src/modules/crl/crl.service';
import { getBytes, opensslAsync, startListeningApp, type ListeningApp } from './pki-support';

/** `openssl verify` following every CDP of the chain over HTTP, up through the root. */
function verifyDownloadingCrls(bundle: Bundle) {
  return opensslAsync(
    (d) => [
      'verify',
      '-crl_check_all',
      '-crl_download',
      '-CAfile',
      join(d, 'root.pem'),
      '-untrusted',
      join(d, 'issuing.pem'),
      join(d, 'cert.pem'),
    ],
    {
      'root.pem': bundle['ca.pem'],
      'issuing.pem': bundle['chain.pem'],
      'cert.pem': bundle['certificate.pem'],
    },
  );
}

describe('CRL distribution points - /pki/* followed by openssl -crl_download', () => {
  let t: ListeningApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startListeningApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('puts the CDP and AIA into the Wi-Fi certificate and the root CDP into the issuing CA', async () => {
    const { certificateSerial } = await issuedDevice(t, admin.accessToken);
    const bundle = await bundleOf(t, admin.accessToken, certificateSerial);
    const leaf = await opensslAsync((d) => ['x509', '-noout', '-text', '-in', join(d, 'c.pem')], {
      'c.pem': bundle['certificate.pem'],
    });
    expect(leaf.out).toContain(`URI:${t.baseUrl}/pki/issuing-ca.crl`);
    expect(leaf.out).toContain(`CA Issuers - URI:${t.baseUrl}/pki/issuing-ca.crt`);
    const issuing = await opensslAsync(
      (d) => ['x509', '-noout', '-text', '-in', join(d, 'c.pem')],
      {
        'c.pem': bundle['chain.pem'],
      },
    );
    expect(issuing.out).toContain(`URI:${t.baseUrl}/pki/root-ca.crl`);
    expect(issuing.out).toContain(`CA Issuers - URI:${t.baseUrl}/pki/root-ca.crt`);
  });

  it('verifies with -crl_check_all -crl_download, then reports the certificate revoked once revoked', async () => {
    const { certificateSerial } = await issuedDevice(t, admin.accessToken);
    const bundle = await bundleOf(t, admin.accessToken, certificateSerial);
    const before = await verifyDownloadingCrls(bundle);
    expect(before.out).toContain('cert.pem: OK');
    expect(before.ok).toBe(true);

    await t.http
      .post(`/api/v1/certificates/${certificateSerial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);

    const after = await verifyDownloadingCrls(bundle);
    expect(after.ok).toBe(false);
    expect(after.out).toContain('certificate revoked');
  });

  it('serves the root CRL signed by the root, empty, and the root names it as its own CDP', async () => {
    const root = await getBytes(t, '/pki/root-ca.crt').expect(200);
    expect(root.headers['content-type']).toBe('application/pkix-cert');
    const rootPem = new X509Certificate(root.body as Buffer).toString();
    const rootText = await opensslAsync(
      (d) => ['x509', '-noout', '-text', '-in', join(d, 'r.pem')],
      {
        'r.pem': rootPem,
      },
    );
    expect(rootText.out).toContain(`URI:${t.baseUrl}/pki/root-ca.crl`);
    const served = await getBytes(t, '/pki/root-ca.crl').expect(200);
    expect(served.headers['content-type']).toBe('application/pkix-crl');
    const text = await opensslAsync(
      (d) => [
        'crl',
        '-inform',
        'DER',
        '-in',
        join(d, 'root.crl'),
        '-CAfile',
        join(d, 'root.pem'),
        '-noout',
        '-text',
      ],
      { 'root.crl': served.body as Buffer, 'root.pem': rootPem },
    );
    expect(text.out).toContain('verify OK');
    expect(text.out).toContain('No Revoked Certificates');
    expect(text.out).toContain('Issuer: CN = Device Certificate Service Root CA');
    const next = /Next Update: (.+)/.exec(text.out)?.[1] ?? '';
    const last = /Last Update: (.+)/.exec(text.out)?.[1] ?? '';
    expect(Date.parse(next) - Date.parse(last)).toBe(7 * 24 * 3600_000);
  });

  it('the periodic refresh re-signs the root CRL once less than 4 days remain, not before', async () => {
    const crls = t.app.get(CrlService);
    const before = await crls.latest(new Date(), 'root');
    const day = 24 * 3600_000;
    await crls.refreshIfDue(new Date(before.nextUpdate.getTime() - 5 * day));
    expect((await crls.latest(new Date(), 'root')).crlNumber).toBe(before.crlNumber);
    await crls.refreshIfDue(new Date(before.nextUpdate.getTime() - 3 * day));
    const after = await crls.latest(new Date(), 'root');
    expect(after.crlNumber).toBe(before.crlNumber + 1n);
    expect(after.der.equals(before.der)).toBe(false);
  });

  it('lists the same two CRLs to agents (POST /enroll/crl): issuing CA first, then the root', async () => {
    const res = await t.http.post('/api/v1/enroll/crl').send({}).expect(200);
    const crls = res.body.crls as { issuer: string; pem: string }[];
    expect(crls.map((c) => c.issuer)).toEqual([
      'CN=Device Certificate Service Issuing CA',
      'CN=Device Certificate Service Root CA',
    ]);
    const served = await getBytes(t, '/pki/root-ca.crl', {
      Accept: 'application/x-pem-file',
    }).expect(200);
    expect((served.body as Buffer).toString()).toBe(crls[1].pem);
  });

  it('re-signs a due CRL once when many relying parties fetch it at the same moment', async () => {
    const db = t.app.get(DataSource);
    for (const [table, path] of [
      ['crl_state', '/pki/issuing-ca.crl'],
      ['root_crl_state', '/pki/root-ca.crl'],
    ] as const) {
      await getBytes(t, path).expect(200);
      // Due: less than the refresh margin left before nextUpdate.
      await db.query(`UPDATE ${table} SET next_update = now() + interval '1 hour'`);
      const [{ crl_number: before }] = (await db.query(`SELECT crl_number FROM ${table}`)) as {
        crl_number: string;
      }[];
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => getBytes(t, path).expect(200)),
      );
      expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
      const [{ crl_number: after }] = (await db.query(`SELECT crl_number FROM ${table}`)) as {
        crl_number: string;
      }[];
      expect(BigInt(after)).toBe(BigInt(before) + 1n);
    }
  });
});
