import { ScepStandIn } from '@platform/pki/testing';
import { enrollDevices, startEnrollApp } from '../fixtures/enroll';
import { approve } from '../fixtures/issue';
import { Vendor } from '../fixtures/license';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { scepIssuer, useScep } from './scep-support';

describe('SCEP issuer - a request waiting at the CA holds its purpose seat', () => {
  const vendor = new Vendor();
  let t: TestApp;
  let admin: TestUser;
  let ca: ScepStandIn;
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: vendor.publicKey } });
    admin = await loginAdmin(t);
    ca = await new ScepStandIn({ pendingPolls: 1000 }).start();
    useScep(t, scepIssuer(ca.url));
  });
  afterAll(async () => {
    await ca.close();
    await t.close();
    vendor.dispose();
  });

  it('step 3: two ca_pending requests take both wifi seats, a third approval is refused', async () => {
    const status = await t.http
      .get('/api/v1/license/status')
      .set(...bearer(admin.accessToken))
      .expect(200);
    const instanceKey = (status.body as { deployment_instance_key: string })
      .deployment_instance_key;
    await t.http
      .post('/api/v1/license/activate')
      .set(...bearer(admin.accessToken))
      .send({ license_b64: vendor.sign({ instanceKey, maxDevices: 10, seats: { wifi: 2 } }) })
      .expect(200);
    await t.http
      .put('/api/v1/license/seat-enforcement')
      .set(...bearer(admin.accessToken))
      .send({ step: 3 })
      .expect(200);
    const devices = await enrollDevices(t, 3);
    // One approval per call: each its own transaction, so only the stored state counts.
    const outcomes: unknown[] = [];
    for (const device of devices) {
      const res = await approve(t, admin.accessToken, [device.requestId]);
      const body = res.body as { results?: { status: string }[]; code?: string };
      outcomes.push([res.status, body.results?.[0]?.status ?? body.code]);
    }
    expect(outcomes).toEqual([
      [200, 'ca_pending'],
      [200, 'ca_pending'],
      [402, 'license_purpose_limit'],
    ]);
  });
});
