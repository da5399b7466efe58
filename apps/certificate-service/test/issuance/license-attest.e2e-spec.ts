import { randomBytes, verify } from 'node:crypto';
import { startTestApp } from '../support/test-app';
import { Vendor } from '../fixtures/license';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { attestMessage, ed25519PublicKey } from '../../src/modules/license/license-file';

describe('License - /api/v1/license/attest (POST)', () => {
  const vendor = new Vendor();
  let t: TestApp;
  let admin: TestUser;
  let instanceKey: string;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: vendor.publicKey,
        CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '4',
      },
    });
    admin = await loginAdmin(t);
    const status = await t.http
      .get('/api/v1/license/status')
      .set(...bearer(admin.accessToken))
      .expect(200);
    instanceKey = status.body.deployment_instance_key as string;
  });
  afterAll(async () => {
    await t.close();
    vendor.dispose();
  });

  const attest = (nonce: string) => t.http.post('/api/v1/license/attest').send({ nonce });
  const verifies = (body: Record<string, string>, nonce: string, license: string) =>
    verify(
      null,
      attestMessage(nonce, license),
      ed25519PublicKey(instanceKey)!,
      Buffer.from(body.signature, 'base64'),
    );

  it('signs (license, nonce) with the deployment key, verifiable with the published instance key', async () => {
    const freeNonce = randomBytes(16).toString('hex');
    const free = await attest(freeNonce).expect(200);
    expect(free.body).toMatchObject({
      mode: 'free',
      license_b64: '',
      nonce: freeNonce,
      deployment_instance_key: instanceKey,
    });
    expect(verifies(free.body, freeNonce, '')).toBe(true);

    const license = vendor.sign({ instanceKey, maxDevices: 10 });
    await t.http
      .post('/api/v1/license/activate')
      .set(...bearer(admin.accessToken))
      .send({ license_b64: license })
      .expect(200);
    const nonce = randomBytes(24).toString('base64');
    const licensed = await attest(nonce).expect(200);
    expect(licensed.body).toMatchObject({ mode: 'licensed', license_b64: license, nonce });
    expect(verifies(licensed.body, nonce, license)).toBe(true);
    // Bound to the nonce and to the license: a replay for another nonce does not verify.
    expect(verifies(licensed.body, freeNonce, license)).toBe(false);
    expect(verifies(licensed.body, nonce, '')).toBe(false);
  });

  it('refuses a missing or short nonce, and is rate limited like /enroll', async () => {
    await t.http.post('/api/v1/license/attest').send({}).expect(400);
    // Limit 4 a minute per client: 3 calls so far (the guard runs before validation).
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await attest(randomBytes(16).toString('hex'))).status);
    }
    expect(statuses).toEqual([200, 429, 429]);
    const limited = await attest(randomBytes(16).toString('hex')).expect(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
  });
});
