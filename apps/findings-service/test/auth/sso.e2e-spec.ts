import { newSigningKey, type TestIdentityProvider } from '@platform/testing';
import request from 'supertest';
import { freshUser, loginAdmin } from '../support/sessions';
import { cookieOf, returnToApp, ssoEnv, ssoFlow, startCorpProvider } from '../support/sso';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Single sign-on - /api/v1/auth/sso/{provider}/login and /callback (GET)', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startCorpProvider();
    t = await startTestApp(ssoEnv(idp));
  });
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  /** The access token the UI obtains after the callback, through the refresh route. */
  async function accessAfter(callback: request.Response) {
    const refresh = (cookieOf(callback, 'findsvc_refresh') ?? '').split(';')[0];
    const res = await request(t.url)
      .post('/api/v1/auth/token/refresh')
      .set('Cookie', refresh)
      .expect(200);
    return res.body.data as { access_token: string; user: { id: string; email: string } };
  }

  it('lists the provider with its button address', async () => {
    const res = await request(t.url).get('/api/v1/auth/config').expect(200);
    expect(res.body.data).toEqual({
      login_mode: 'mixed',
      local_enabled: true,
      providers: [
        {
          id: 'corp',
          name: 'Corporate SSO',
          type: 'oidc',
          login_url: '/api/v1/auth/sso/corp/login',
        },
      ],
    });
  });

  it('redirects to the provider with PKCE, state and nonce, and seals them in a Lax cookie', async () => {
    const res = await request(t.url).get('/api/v1/auth/sso/corp/login').expect(302);
    const to = new URL(res.headers.location as string);
    expect(`${to.origin}`).toBe(idp.issuer);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: 'findings-service',
      response_type: 'code',
      redirect_uri: 'http://findings.test/api/v1/auth/sso/corp/callback',
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    for (const p of ['state', 'nonce', 'code_challenge'])
      expect(to.searchParams.get(p)).toBeTruthy();
    const flow = cookieOf(res, 'findsvc_sso_flow') ?? '';
    expect(flow).toMatch(/Max-Age=600; Path=\/api\/v1\/auth\/sso; HttpOnly; SameSite=Lax/);
    // the secrets are sealed: neither state nor nonce can be read from the cookie
    expect(flow).not.toContain(to.searchParams.get('state'));
    expect(flow).not.toContain(to.searchParams.get('nonce'));
  });

  it('signs in end to end: refresh cookie, redirect to the UI, access token via token/refresh', async () => {
    const flow = await ssoFlow(t, idp, 'ann');
    const res = await returnToApp(t, flow).expect(302);
    expect(res.headers.location).toBe('/ui/');
    expect(cookieOf(res, 'findsvc_refresh')).toMatch(/HttpOnly; SameSite=Strict/);
    expect(cookieOf(res, 'findsvc_sso_flow')).toMatch(/^findsvc_sso_flow=; Max-Age=0/);
    const session = await accessAfter(res);
    expect(session.user.email).toBe('ann@corp.test');
    const me = await request(t.url)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${session.access_token}`)
      .expect(200);
    expect(me.body.data.user).toMatchObject({ email: 'ann@corp.test', display_name: 'Ann Corp' });
  });

  it('joins an existing user by e-mail (the same user at every sign-in)', async () => {
    const admin = await loginAdmin(t);
    const local = await request(t.url)
      .post('/api/v1/admin/users')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ email: 'bob@corp.test', password: 'bob-local-password-1' })
      .expect(201);
    for (let i = 0; i < 2; i++) {
      const res = await returnToApp(t, await ssoFlow(t, idp, 'bob')).expect(302);
      expect((await accessAfter(res)).user.id).toBe(local.body.data.id);
    }
  });

  it('accepts the legacy alias in the login and callback paths', async () => {
    const flow = await ssoFlow(t, idp, 'carl', { segment: 'keycloak' });
    const res = await returnToApp(t, flow, 'keycloak').expect(302);
    expect((await accessAfter(res)).user.email).toBe('carl@corp.test');
  });

  it('answers 404 for a provider that is not configured', async () => {
    const res = await request(t.url).get('/api/v1/auth/sso/github/login').expect(404);
    expect(res.body.code).toBe('sso_provider_unknown');
  });

  it('starts a native client flow for a loopback redirect_uri only (RFC 8252), else 400', async () => {
    const loopback = 'http://127.0.0.1:49152/callback';
    const ok = await request(t.url)
      .get('/api/v1/auth/sso/corp/login')
      .query({ redirect_uri: loopback })
      .expect(302);
    expect(new URL(ok.headers.location as string).searchParams.get('redirect_uri')).toBe(loopback);
    for (const bad of [
      'https://evil.example/callback',
      'http://localhost:49152/callback',
      'http://127.0.0.1/callback',
      'http://127.0.0.1:49152/callback?x=1',
      'http://user@127.0.0.1:49152/callback',
      'not a url',
    ]) {
      const res = await request(t.url)
        .get('/api/v1/auth/sso/corp/login')
        .query({ redirect_uri: bad })
        .expect(400);
      expect(res.body.code).toBe('sso_redirect_uri_invalid');
    }
  });

  it('refuses a wrong state', async () => {
    const flow = await ssoFlow(t, idp, 'dora');
    flow.callback.searchParams.set('state', 'forged-state');
    const res = await returnToApp(t, flow).expect(400);
    expect(res.body.code).toBe('sso_state_invalid');
  });

  it('refuses a callback without the flow cookie (another browser)', async () => {
    const flow = await ssoFlow(t, idp, 'dora');
    const res = await returnToApp(t, { ...flow, flowCookie: 'other=1' }).expect(400);
    expect(res.body.code).toBe('sso_state_invalid');
  });

  it('completes a flow once: a replayed callback is refused', async () => {
    const flow = await ssoFlow(t, idp, 'dora');
    await returnToApp(t, flow).expect(302);
    const replay = await returnToApp(t, flow).expect(400);
    expect(replay.body.code).toBe('sso_state_invalid');
    expect(cookieOf(replay, 'findsvc_refresh')).toBeUndefined();
  });

  it('refuses an ID token with a wrong nonce', async () => {
    const flow = await ssoFlow(t, idp, 'dora', {
      tamper: (authorization) => authorization.searchParams.set('nonce', 'not-the-flows-nonce'),
    });
    const res = await returnToApp(t, flow).expect(401);
    expect(res.body.code).toBe('sso_id_token_invalid');
  });

  it('refuses an expired ID token (crafted: the proxy swaps the provider token)', async () => {
    const now = Math.floor(Date.now() / 1000);
    idp.craftNextIdToken((claims) => ({
      claims: { ...claims, iat: now - 7200, exp: now - 3600 },
      key: idp.signingKey,
    }));
    const res = await returnToApp(t, await ssoFlow(t, idp, 'dora')).expect(401);
    expect(res.body.code).toBe('sso_id_token_invalid');
  });

  it('refuses an ID token for another audience (crafted: the proxy swaps the provider token)', async () => {
    idp.craftNextIdToken((claims) => ({
      claims: { ...claims, aud: 'some-other-client', azp: 'some-other-client' },
      key: idp.signingKey,
    }));
    const res = await returnToApp(t, await ssoFlow(t, idp, 'dora')).expect(401);
    expect(res.body.code).toBe('sso_id_token_invalid');
  });

  it('refuses an unsigned ID token, alg none (crafted: the proxy swaps the provider token)', async () => {
    idp.craftNextIdToken((claims) => ({ claims, key: null }));
    const res = await returnToApp(t, await ssoFlow(t, idp, 'dora')).expect(401);
    expect(res.body.code).toBe('sso_id_token_invalid');
  });

  it('refetches the JWKS once for an unknown kid and refuses it (crafted), then follows a real key rotation', async () => {
    await returnToApp(t, await ssoFlow(t, idp, 'eve')).expect(302); // keys cached
    const unpublished = newSigningKey();
    idp.craftNextIdToken((claims) => ({ claims, key: unpublished }));
    const fetchesBefore = idp.requestsFor('/jwks');
    const refused = await returnToApp(t, await ssoFlow(t, idp, 'eve')).expect(401);
    expect(refused.body.code).toBe('sso_id_token_invalid');
    expect(idp.requestsFor('/jwks')).toBe(fetchesBefore + 1);

    const rotated = await idp.rotateKeys();
    const flow = await ssoFlow(t, idp, 'eve');
    const res = await returnToApp(t, flow).expect(302);
    expect((await accessAfter(res)).user.email).toBe('eve@corp.test');
    expect(idp.requestsFor('/jwks')).toBe(fetchesBefore + 2);
    expect(rotated.kid).not.toBe(unpublished.kid);
  });

  it('refuses an identity without an e-mail claim, and one marked unverified', async () => {
    const missing = await returnToApp(t, await ssoFlow(t, idp, 'nomail')).expect(401);
    expect(missing.body.code).toBe('sso_email_missing');
    const unverified = await returnToApp(t, await ssoFlow(t, idp, 'unverified')).expect(401);
    expect(unverified.body.code).toBe('sso_email_unverified');
  });

  it('refuses an identity whose provider does not say the e-mail is verified (no email_verified claim)', async () => {
    const res = await returnToApp(t, await ssoFlow(t, idp, 'silent')).expect(401);
    expect(res.body.code).toBe('sso_email_unverified');
  });

  it('answers the provider refusing the sign-in (unknown account) with 401', async () => {
    const res = await returnToApp(t, await ssoFlow(t, idp, 'ghost')).expect(401);
    expect(res.body.code).toBe('sso_provider_refused');
  });

  it('refuses a disabled user like a wrong password', async () => {
    const admin = await loginAdmin(t);
    const user = await freshUser(t, admin);
    await request(t.url)
      .put(`/api/v1/admin/users/${user.id}/enabled`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ enabled: false })
      .expect(200);
    // the provider knows this user under the same e-mail
    idp.craftNextIdToken((claims) => ({
      claims: { ...claims, email: user.email },
      key: idp.signingKey,
    }));
    const res = await returnToApp(t, await ssoFlow(t, idp, 'dora')).expect(401);
    expect(res.body.code).toBe('invalid_credentials');
  });
});

describe('Single sign-on - a provider set to assume verified e-mails (SSO_<ID>_ASSUME_EMAIL_VERIFIED)', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startCorpProvider();
    t = await startTestApp({ ...ssoEnv(idp), SSO_CORP_ASSUME_EMAIL_VERIFIED: 'true' });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  it('signs in an identity without the email_verified claim, and still refuses one marked unverified', async () => {
    const res = await returnToApp(t, await ssoFlow(t, idp, 'silent')).expect(302);
    expect(cookieOf(res, 'findsvc_refresh')).toBeDefined();
    const unverified = await returnToApp(t, await ssoFlow(t, idp, 'unverified')).expect(401);
    expect(unverified.body.code).toBe('sso_email_unverified');
  });
});
