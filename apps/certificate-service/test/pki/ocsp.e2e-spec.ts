import { join } from 'node:path';
import { issuedDevice } from '../fixtures/issue';
import { bundleOf, type Bundle } from '../issuance/issuance-support';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import { getBytes, opensslAsync, startListeningApp, type ListeningApp } from './pki-support';

describe('OCSP responder - /pki/ocsp with openssl ocsp', () => {
  let t: ListeningApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startListeningApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const files = (bundle: Bundle) => ({
    'root.pem': bundle['ca.pem'],
    'issuing.pem': bundle['chain.pem'],
    'cert.pem': bundle['certificate.pem'],
  });

  /** `openssl ocsp` against the URL the certificate's AIA names (nonce on by default). */
  async function ask(bundle: Bundle, extra: string[] = []) {
    const uri = await opensslAsync(
      (d) => ['x509', '-noout', '-ocsp_uri', '-in', join(d, 'c.pem')],
      {
        'c.pem': bundle['certificate.pem'],
      },
    );
    return opensslAsync(
      (d) => [
        'ocsp',
        '-issuer',
        join(d, 'issuing.pem'),
        '-cert',
        join(d, 'cert.pem'),
        '-CAfile',
        join(d, 'root.pem'),
        '-url',
        uri.out.trim(),
        ...extra,
      ],
      files(bundle),
    );
  }

  it('answers good, signed by the issuing CA with the nonce echoed, then revoked with the reason', async () => {
    const { certificateSerial } = await issuedDevice(t, admin.accessToken);
    const bundle = await bundleOf(t, admin.accessToken, certificateSerial);
    const before = await ask(bundle, ['-resp_text']);
    expect(before.out).toContain('Response verify OK');
    expect(before.out).toMatch(/cert\.pem: good/);
    expect(before.out).toContain('OCSP Nonce');
    expect(before.out).not.toContain('WARNING');
    expect(before.out).toContain('Next Update');

    await t.http
      .post(`/api/v1/certificates/${certificateSerial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);
    const after = await ask(bundle);
    expect(after.out).toContain('Response verify OK');
    expect(after.out).toMatch(/cert\.pem: revoked/);
    expect(after.out).toContain('Reason: keyCompromise');
  });

  it('answers unknown for a certificate of another CA and for an unknown serial of ours', async () => {
    const { certificateSerial } = await issuedDevice(t, admin.accessToken);
    const bundle = await bundleOf(t, admin.accessToken, certificateSerial);
    const foreign = await opensslAsync(
      (d) => [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        join(d, 'k.pem'),
        '-subj',
        '/CN=elsewhere',
        '-days',
        '1',
      ],
      {},
    );
    const other = await opensslAsync(
      (d) => [
        'ocsp',
        '-issuer',
        join(d, 'f.pem'),
        '-cert',
        join(d, 'f.pem'),
        '-url',
        `${t.baseUrl}/pki/ocsp`,
        '-noverify',
      ],
      { 'f.pem': foreign.out },
    );
    expect(other.out).toMatch(/f\.pem: unknown/);

    const unknownSerial = await opensslAsync(
      (d) => [
        'ocsp',
        '-issuer',
        join(d, 'issuing.pem'),
        '-serial',
        '0x7f00000000000000000000000000abcd',
        '-CAfile',
        join(d, 'root.pem'),
        '-url',
        `${t.baseUrl}/pki/ocsp`,
      ],
      files(bundle),
    );
    expect(unknownSerial.out).toContain('Response verify OK');
    expect(unknownSerial.out).toMatch(/0x7f0+abcd: unknown/i);
  });

  it('answers the GET form (base64, URL-encoded) cacheable; an answer to a nonce is never cached', async () => {
    const { certificateSerial } = await issuedDevice(t, admin.accessToken);
    const bundle = await bundleOf(t, admin.accessToken, certificateSerial);
    const made = await opensslAsync(
      (d) => [
        'ocsp',
        '-issuer',
        join(d, 'issuing.pem'),
        '-cert',
        join(d, 'cert.pem'),
        '-no_nonce',
        '-reqout',
        join(d, 'req.der'),
      ],
      files(bundle),
      ['req.der'],
    );
    const requestDer = made.files['req.der'];
    const path = `/pki/ocsp/${encodeURIComponent(requestDer.toString('base64'))}`;
    const res = await getBytes(t, path).expect(200);
    expect(res.headers['content-type']).toBe('application/ocsp-response');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+, no-transform$/);
    const checked = await opensslAsync(
      (d) => [
        'ocsp',
        '-respin',
        join(d, 'resp.der'),
        '-issuer',
        join(d, 'issuing.pem'),
        '-cert',
        join(d, 'cert.pem'),
        '-CAfile',
        join(d, 'root.pem'),
      ],
      { ...files(bundle), 'resp.der': res.body as Buffer },
    );
    expect(checked.out).toContain('Response verify OK');
    expect(checked.out).toMatch(/cert\.pem: good/);
    // base64url without padding is read too: a successful answer (status 0), not malformedRequest.
    const url = requestDer.toString('base64url');
    const viaUrl = (await getBytes(t, `/pki/ocsp/${url}`).expect(200)).body as Buffer;
    expect(viaUrl.length).toBeGreaterThan(100);
    expect(viaUrl.subarray(0, 8).includes(Buffer.from([0x0a, 0x01, 0x00]))).toBe(true);

    const posted = await t.http
      .post('/pki/ocsp')
      .set('content-type', 'application/ocsp-request')
      .send(requestDer)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(posted.headers['cache-control']).toMatch(/^public/);

    const withNonce = await opensslAsync(
      (d) => [
        'ocsp',
        '-issuer',
        join(d, 'issuing.pem'),
        '-cert',
        join(d, 'cert.pem'),
        '-reqout',
        join(d, 'req.der'),
      ],
      files(bundle),
      ['req.der'],
    );
    const once = await t.http
      .post('/pki/ocsp')
      .set('content-type', 'application/ocsp-request')
      .send(withNonce.files['req.der'])
      .expect(200);
    expect(once.headers['cache-control']).toBe('no-store');
  });

  it('answers malformedRequest to garbage, in OCSP (never 4xx/5xx), and refuses other media types', async () => {
    const malformed = Buffer.from([0x30, 0x03, 0x0a, 0x01, 0x01]);
    for (const body of [Buffer.from('garbage'), Buffer.from([0x30, 0x00]), Buffer.alloc(0)]) {
      const res = await t.http
        .post('/pki/ocsp')
        .set('content-type', 'application/ocsp-request')
        .send(body)
        .buffer(true)
        .parse((response, done) => {
          const chunks: Buffer[] = [];
          response.on('data', (c: Buffer) => chunks.push(c));
          response.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect((res.body as Buffer).equals(malformed)).toBe(true);
    }
    // Not a URL at all: the HTTP layer refuses it in the service envelope.
    const badUrl = await t.http.get('/pki/ocsp/%%%').expect(400);
    expect(badUrl.body).toMatchObject({ code: expect.any(String) });
    for (const path of ['/pki/ocsp/not*base64', '/pki/ocsp/AAAA', '/pki/ocsp/a%2Fb%3D']) {
      const res = await getBytes(t, path).expect(200);
      expect((res.body as Buffer).equals(malformed)).toBe(true);
    }
    await t.http.post('/pki/ocsp').set('content-type', 'text/plain').send('x').expect(415);
    const big = Buffer.alloc(9 * 1024, 0x30);
    await t.http
      .post('/pki/ocsp')
      .set('content-type', 'application/ocsp-request')
      .send(big)
      .expect(413);
  });
});
