import { startTestApp, type TestApp } from '../support/test-app';

describe('Features - /api/v1/features (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { CERTSVC_FEATURES_K8S: 'true', CERTSVC_WEBHOOKS_ENABLED: 'true' },
    });
  });
  afterAll(() => t.close());

  it('lists public feature flags from the configuration', async () => {
    const res = await t.http.get('/api/v1/features').expect(200);
    expect(res.body).toEqual({
      local_auth: true,
      oidc: false,
      scep: false,
      ssh: true,
      k8s: true,
      webhooks: true,
    });
  });
});
