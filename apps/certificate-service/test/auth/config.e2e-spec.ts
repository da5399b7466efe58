import { startTestApp, type TestApp } from '../support/test-app';

describe('Auth config - /api/v1/auth/config (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is public and shaped for a later PKCE flow', async () => {
    const res = await t.http.get('/api/v1/auth/config').expect(200);
    expect(res.body).toEqual({
      local_enabled: true,
      oidc: {
        enabled: false,
        issuer: null,
        client_id: null,
        authorization_endpoint: null,
        scopes: ['openid', 'email', 'profile'],
        code_challenge_method: 'S256',
      },
    });
  });
});

describe('OIDC callback - /api/v1/auth/callback (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 oidc_disabled while single sign-on is not configured', async () => {
    const res = await t.http
      .post('/api/v1/auth/callback')
      .send({ code: 'c', code_verifier: 'v', redirect_uri: 'https://ui.example/cb' })
      .expect(404);
    expect(res.body.code).toBe('oidc_disabled');
  });
});
