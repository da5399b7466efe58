import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { startEnrollApp } from '../fixtures/enroll';
import { issuedDevice } from '../fixtures/issue';
import { bundleOf } from '../issuance/issuance-support';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import { getBytes, opensslAsync, startListeningApp, type ListeningApp } from './pki-support';

const PEM = 'application/x-pem-file';

describe('Published CRLs and CA certificates - /pki/* (GET)', () => {
  let t: ListeningApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startListeningApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('serves the issuing CA CRL as DER without a session, with ETag, Last-Modified and Cache-Control up to nextUpdate', async () => {
    const res = await getBytes(t, '/pki/issuing-ca.crl').expect(200);
    expect(res.headers['content-type']).toBe('application/pkix-crl');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(res.headers.vary).toBe('Accept');
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers['cache-control'] as string)?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(300);
    const text = await opensslAsync(
      (d) => ['crl', '-inform', 'DER', '-in', join(d, 'c.crl'), '-noout', '-lastupdate'],
      { 'c.crl': res.body as Buffer },
    );
    const lastUpdate = text.out.trim().replace(/^lastUpdate=/, '');
    expect(Date.parse(res.headers['last-modified'] as string)).toBe(Date.parse(lastUpdate));
  });

  it('answers 304 to If-None-Match and If-Modified-Since, and 200 with a new ETag once a revocation re-signs it', async () => {
    const first = await getBytes(t, '/pki/issuing-ca.crl').expect(200);
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    const notModified = await getBytes(t, '/pki/issuing-ca.crl', { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.etag).toBe(etag);
    expect((notModified.body as Buffer).length).toBe(0);
    await getBytes(t, '/pki/issuing-ca.crl', { 'If-None-Match': `"other", ${etag}` }).expect(304);
    await getBytes(t, '/pki/issuing-ca.crl', { 'If-Modified-Since': lastModified }).expect(304);
    // If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
    await getBytes(t, '/pki/issuing-ca.crl', {
      'If-None-Match': '"stale"',
      'If-Modified-Since': lastModified,
    }).expect(200);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    await getBytes(t, '/pki/issuing-ca.crl', { 'If-Modified-Since': earlier }).expect(200);

    const { certificateSerial } = await issuedDevice(t, admin.accessToken);
    await t.http
      .post(`/api/v1/certificates/${certificateSerial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({})
      .expect(200);
    const after = await getBytes(t, '/pki/issuing-ca.crl', { 'If-None-Match': etag }).expect(200);
    expect(after.headers.etag).not.toBe(etag);
    expect((after.body as Buffer).equals(first.body as Buffer)).toBe(false);
  });

  it('serves PEM on Accept: application/x-pem-file with its own ETag', async () => {
    const der = await getBytes(t, '/pki/issuing-ca.crl').expect(200);
    const pem = await getBytes(t, '/pki/issuing-ca.crl', { Accept: PEM }).expect(200);
    expect(pem.headers['content-type']).toBe(PEM);
    const text = (pem.body as Buffer).toString();
    expect(text.startsWith('-----BEGIN X509 CRL-----\n')).toBe(true);
    expect(pem.headers.etag).not.toBe(der.headers.etag);
    await getBytes(t, '/pki/issuing-ca.crl', {
      Accept: PEM,
      'If-None-Match': der.headers.etag as string,
    }).expect(200);
    await getBytes(t, '/pki/issuing-ca.crl', {
      Accept: PEM,
      'If-None-Match': pem.headers.etag as string,
    }).expect(304);
    const parsed = await opensslAsync((d) => ['crl', '-in', join(d, 'c.pem'), '-noout'], {
      'c.pem': text,
    });
    expect(parsed.ok).toBe(true);
    const rootPem = await getBytes(t, '/pki/root-ca.crl', { Accept: PEM }).expect(200);
    expect((rootPem.body as Buffer).toString()).toContain('-----BEGIN X509 CRL-----');
  });

  it('serves the CA certificates the bundles carry, DER and PEM', async () => {
    const { certificateSerial } = await issuedDevice(t, admin.accessToken);
    const bundle = await bundleOf(t, admin.accessToken, certificateSerial);
    const issuing = await getBytes(t, '/pki/issuing-ca.crt').expect(200);
    expect(issuing.headers['content-type']).toBe('application/pkix-cert');
    expect(new X509Certificate(issuing.body as Buffer).raw).toEqual(
      new X509Certificate(bundle['chain.pem']).raw,
    );
    const root = await getBytes(t, '/pki/root-ca.crt', { Accept: PEM }).expect(200);
    expect(root.headers['content-type']).toBe(PEM);
    expect(new X509Certificate(root.body as Buffer).raw).toEqual(
      new X509Certificate(bundle['ca.pem']).raw,
    );
    await getBytes(t, '/pki/root-ca.crt', {
      Accept: PEM,
      'If-None-Match': root.headers.etag as string,
    }).expect(304);
  });
});

describe('An existing CA without distribution points - restart with CERTSVC_PKI_BASE_URL', () => {
  it('re-issues both CA certificates under the same keys; old and new certificates verify', async () => {
    const before = await startEnrollApp();
    let after: ListeningApp | undefined;
    try {
      const admin = await loginAdmin(before);
      const old = await issuedDevice(before, admin.accessToken);
      const oldBundle = await bundleOf(before, admin.accessToken, old.certificateSerial);
      await before.app.close();

      after = await startListeningApp({ database: before.db });
      expect(after.logs.lines().map((l) => l.msg)).toContain(
        'CA certificates re-issued under the same keys with the CRL distribution points',
      );
      const admin2 = await loginAdmin(after);
      const fresh = await issuedDevice(after, admin2.accessToken);
      const bundle = await bundleOf(after, admin2.accessToken, fresh.certificateSerial);
      const [oldIssuing, newIssuing] = [oldBundle, bundle].map(
        (b) => new X509Certificate(b['chain.pem']),
      );
      expect(newIssuing.publicKey.export({ format: 'der', type: 'spki' })).toEqual(
        oldIssuing.publicKey.export({ format: 'der', type: 'spki' }),
      );
      expect(newIssuing.serialNumber).not.toBe(oldIssuing.serialNumber);
      expect(newIssuing.infoAccess).toContain(`${after.baseUrl}/pki/root-ca.crt`);

      // The certificate issued before chains to the re-issued CA certificates.
      const oldLeaf = await opensslAsync(
        (d) => [
          'verify',
          '-CAfile',
          join(d, 'r.pem'),
          '-untrusted',
          join(d, 'i.pem'),
          join(d, 'c.pem'),
        ],
        {
          'r.pem': bundle['ca.pem'],
          'i.pem': bundle['chain.pem'],
          'c.pem': oldBundle['certificate.pem'],
        },
      );
      expect(oldLeaf.out).toContain('c.pem: OK');
      // A new certificate verifies with every CRL downloaded, even against the old root file.
      const fresh2 = await opensslAsync(
        (d) => [
          'verify',
          '-crl_check',
          '-crl_download',
          '-CAfile',
          join(d, 'r.pem'),
          '-untrusted',
          join(d, 'i.pem'),
          join(d, 'c.pem'),
        ],
        {
          'r.pem': oldBundle['ca.pem'],
          'i.pem': bundle['chain.pem'],
          'c.pem': bundle['certificate.pem'],
        },
      );
      expect(fresh2.out).toContain('c.pem: OK');

      // A second start finds the pointers in place and re-issues nothing.
      const issuingDer = (await getBytes(after, '/pki/issuing-ca.crt').expect(200)).body as Buffer;
      await after.app.close();
      const third = await startEnrollApp({
        database: before.db,
        env: { CERTSVC_PKI_BASE_URL: after.baseUrl },
      });
      try {
        expect(third.logs.lines().map((l) => l.msg)).not.toContain(
          'CA certificates re-issued under the same keys with the CRL distribution points',
        );
        const again = (await getBytes(third, '/pki/issuing-ca.crt').expect(200)).body as Buffer;
        expect(again.equals(issuingDer)).toBe(true);
      } finally {
        await third.app.close();
      }
    } finally {
      await after?.app.close().catch(() => undefined);
      await before.db.drop();
    }
  });
});
