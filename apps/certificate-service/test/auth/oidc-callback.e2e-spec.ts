import { newSigningKey, type TestIdentityProvider } from '@platform/testing';
import { oidcEnv, spaAuthorization, startSpaProvider } from '../support/oidc';
import { startTestApp, type TestApp } from '../support/test-app';

const CLIENT_SECRET = 'certificate-ui-client-secret-0123';

describe('OIDC callback - /api/v1/auth/callback (POST) with an identity provider', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startSpaProvider(
      {
        ann: { email: 'ann@corp.test', email_verified: true, name: 'Ann' },
        bob: { email: 'Bob@Corp.Test', email_verified: true },
        nomail: { name: 'No Mail' },
        // a provider that does not say whether it verified the address
        silent: { email: 'silent@corp.test' },
        unverified: { email: 'unverified@corp.test', email_verified: false },
      },
      CLIENT_SECRET,
    );
    t = await startTestApp({ env: oidcEnv(idp, CLIENT_SECRET) });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  it('publishes the provider for the SPA in /api/v1/auth/config', async () => {
    const res = await t.http.get('/api/v1/auth/config').expect(200);
    expect(res.body).toEqual({
      local_enabled: true,
      oidc: {
        enabled: true,
        issuer: idp.issuer,
        client_id: 'certificate-ui',
        authorization_endpoint: `${idp.issuer}/auth`,
        scopes: ['openid', 'email', 'profile'],
        code_challenge_method: 'S256',
      },
    });
  });

  it('reports the oidc feature as served', async () => {
    const res = await t.http.get('/api/v1/features').expect(200);
    expect(res.body.oidc).toBe(true);
  });

  it('exchanges the PKCE code for the service tokens of the user named by the e-mail', async () => {
    const body = await spaAuthorization(t, idp, 'bob');
    const res = await t.http.post('/api/v1/auth/callback').send(body).expect(200);
    expect(res.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      user: { email: 'bob@corp.test', role: null, roles: [] },
    });
    expect(res.body.refresh_token).toMatch(/^rt_/);
    expect(String(res.headers['set-cookie'])).toMatch(/certsvc_refresh_token=rt_/);
    const me = await t.http
      .get('/api/v1/auth/me')
      .set('authorization', `Bearer ${res.body.access_token}`)
      .expect(200);
    expect(me.body).toEqual({ email: 'bob@corp.test', role: null, roles: [] });
    await t.http
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: res.body.refresh_token })
      .expect(200);
  });

  it('refuses a redirect_uri the service does not allow, before any request to the provider', async () => {
    const body = await spaAuthorization(t, idp, 'ann');
    const tokenRequests = idp.requestsFor('/token');
    for (const redirectUri of [
      'https://attacker.example/auth/callback',
      `${body.redirect_uri}/`,
      `${body.redirect_uri}?next=/`,
    ]) {
      const res = await t.http
        .post('/api/v1/auth/callback')
        .send({ ...body, redirect_uri: redirectUri })
        .expect(400);
      expect(res.body).toEqual({
        code: 'oidc_redirect_uri_not_allowed',
        message:
          'redirect_uri is not a callback page this service allows (CERTSVC_OIDC_REDIRECT_URIS)',
      });
    }
    expect(idp.requestsFor('/token')).toBe(tokenRequests);
    // the code was not spent: the allowed callback page still signs in with it
    await t.http.post('/api/v1/auth/callback').send(body).expect(200);
  });

  it('refuses a replayed code (the provider redeems a code once)', async () => {
    const body = await spaAuthorization(t, idp, 'ann');
    await t.http.post('/api/v1/auth/callback').send(body).expect(200);
    const replay = await t.http.post('/api/v1/auth/callback').send(body).expect(401);
    expect(replay.body.code).toBe('oidc_provider_refused');
  });

  it('refuses a wrong PKCE verifier', async () => {
    const body = await spaAuthorization(t, idp, 'ann');
    const res = await t.http
      .post('/api/v1/auth/callback')
      .send({ ...body, code_verifier: 'x'.repeat(43) })
      .expect(401);
    expect(res.body.code).toBe('oidc_provider_refused');
  });

  it('requires the nonce and refuses a wrong one', async () => {
    const body = await spaAuthorization(t, idp, 'ann');
    const { nonce: _nonce, ...withoutNonce } = body;
    const missing = await t.http.post('/api/v1/auth/callback').send(withoutNonce).expect(400);
    expect(missing.body.code).toBe('oidc_nonce_required');
    const wrong = await t.http
      .post('/api/v1/auth/callback')
      .send({ ...body, nonce: 'not-the-nonce-of-the-request' })
      .expect(401);
    expect(wrong.body.code).toBe('oidc_id_token_invalid');
  });

  it('refuses an expired ID token (crafted: the proxy swaps the provider token)', async () => {
    const now = Math.floor(Date.now() / 1000);
    idp.craftNextIdToken((claims) => ({
      claims: { ...claims, iat: now - 7200, exp: now - 3600 },
      key: idp.signingKey,
    }));
    const body = await spaAuthorization(t, idp, 'ann');
    const res = await t.http.post('/api/v1/auth/callback').send(body).expect(401);
    expect(res.body.code).toBe('oidc_id_token_invalid');
  });

  it('refuses an ID token for another audience (crafted: the proxy swaps the provider token)', async () => {
    idp.craftNextIdToken((claims) => ({
      claims: { ...claims, aud: 'findings-service' },
      key: idp.signingKey,
    }));
    const body = await spaAuthorization(t, idp, 'ann');
    const res = await t.http.post('/api/v1/auth/callback').send(body).expect(401);
    expect(res.body.code).toBe('oidc_id_token_invalid');
  });

  it('refuses an unsigned ID token, alg none (crafted: the proxy swaps the provider token)', async () => {
    idp.craftNextIdToken((claims) => ({ claims, key: null }));
    const body = await spaAuthorization(t, idp, 'ann');
    const res = await t.http.post('/api/v1/auth/callback').send(body).expect(401);
    expect(res.body.code).toBe('oidc_id_token_invalid');
  });

  it('refetches the JWKS once for an unknown kid and refuses it (crafted), then follows a real key rotation', async () => {
    await t.http
      .post('/api/v1/auth/callback')
      .send(await spaAuthorization(t, idp, 'ann'))
      .expect(200);
    const before = idp.requestsFor('/jwks');
    idp.craftNextIdToken((claims) => ({ claims, key: newSigningKey() }));
    const refused = await t.http
      .post('/api/v1/auth/callback')
      .send(await spaAuthorization(t, idp, 'ann'))
      .expect(401);
    expect(refused.body.code).toBe('oidc_id_token_invalid');
    expect(idp.requestsFor('/jwks')).toBe(before + 1);

    await idp.rotateKeys();
    const res = await t.http
      .post('/api/v1/auth/callback')
      .send(await spaAuthorization(t, idp, 'ann'))
      .expect(200);
    expect(res.body.user.email).toBe('ann@corp.test');
    expect(idp.requestsFor('/jwks')).toBe(before + 2);
  });

  it('refuses an identity whose e-mail is marked unverified, or not said to be verified', async () => {
    for (const account of ['unverified', 'silent']) {
      const body = await spaAuthorization(t, idp, account);
      const res = await t.http.post('/api/v1/auth/callback').send(body).expect(401);
      expect(res.body.code).toBe('oidc_email_unverified');
    }
  });

  it('signs in an identity without email_verified when the provider is set to assume it (CERTSVC_OIDC_ASSUME_EMAIL_VERIFIED)', async () => {
    const assuming = await startTestApp({
      env: { ...oidcEnv(idp, CLIENT_SECRET), CERTSVC_OIDC_ASSUME_EMAIL_VERIFIED: 'true' },
    });
    try {
      const body = await spaAuthorization(assuming, idp, 'silent');
      const res = await assuming.http.post('/api/v1/auth/callback').send(body).expect(200);
      expect(res.body.user.email).toBe('silent@corp.test');
      const marked = await spaAuthorization(assuming, idp, 'unverified');
      const refused = await assuming.http.post('/api/v1/auth/callback').send(marked).expect(401);
      expect(refused.body.code).toBe('oidc_email_unverified');
    } finally {
      await assuming.close();
    }
  });

  it('refuses an identity without an e-mail claim', async () => {
    const body = await spaAuthorization(t, idp, 'nomail');
    const res = await t.http.post('/api/v1/auth/callback').send(body).expect(401);
    expect(res.body.code).toBe('oidc_email_missing');
  });

  describe('refusal log names what failed (crafted: the proxy swaps the provider token)', () => {
    const FOREIGN_ISSUER = 'https://idp.attacker.example';

    /** Posts a callback whose ID token `craft` built and returns the refusal's reason. */
    async function refusalReason(
      craft: Parameters<TestIdentityProvider['craftNextIdToken']>[0],
    ): Promise<string> {
      t.logs.clear();
      idp.craftNextIdToken(craft);
      const body = await spaAuthorization(t, idp, 'ann');
      const res = await t.http.post('/api/v1/auth/callback').send(body).expect(401);
      expect(res.body.code).toBe('oidc_id_token_invalid');
      const line = t.logs.lines().find((l) => l.msg === 'single sign-on refused');
      expect(line).toMatchObject({ level: 'warn', refusal: 'id_token_invalid' });
      return String(line?.reason);
    }

    it('a wrong audience: the aud claim, as received and as expected', async () => {
      const reason = await refusalReason((claims) => ({
        claims: { ...claims, aud: 'findings-service' },
        key: idp.signingKey,
      }));
      expect(reason).toMatch(/"aud" \(audience\)/);
      expect(reason).toContain('got "findings-service", expected "certificate-ui"');
      expect(reason).not.toMatch(/"iss"/);
    });

    it('a foreign issuer (signed with the real key): the iss claim', async () => {
      const reason = await refusalReason((claims) => ({
        claims: { ...claims, iss: FOREIGN_ISSUER },
        key: idp.signingKey,
      }));
      expect(reason).toMatch(/"iss" \(issuer\)/);
      expect(reason).toContain(`got "${FOREIGN_ISSUER}", expected "${idp.issuer}"`);
      expect(reason).not.toMatch(/"aud"|"alg"/);
    });

    it('an unsigned token, alg none: the alg header, even with a foreign issuer', async () => {
      for (const iss of [undefined, FOREIGN_ISSUER]) {
        const reason = await refusalReason((claims) => ({
          claims: iss ? { ...claims, iss } : claims,
          key: null,
        }));
        expect(reason).toMatch(/"alg" header parameter: got "none"/);
        expect(reason).not.toMatch(/"iss"/);
      }
    });
  });

  it('logs a refusal without the code, the verifier, the client secret or any token', async () => {
    t.logs.clear();
    const body = await spaAuthorization(t, idp, 'ann');
    await t.http
      .post('/api/v1/auth/callback')
      .send({ ...body, nonce: 'not-the-nonce-of-the-request' })
      .expect(401);
    const ok = await t.http
      .post('/api/v1/auth/callback')
      .send(await spaAuthorization(t, idp, 'ann'))
      .expect(200);
    const refusal = t.logs.lines().find((l) => l.msg === 'single sign-on refused');
    expect(refusal).toMatchObject({ refusal: 'id_token_invalid' });
    const text = JSON.stringify(t.logs.lines());
    for (const secret of [
      body.code,
      body.code_verifier,
      CLIENT_SECRET,
      ok.body.access_token,
      ok.body.refresh_token,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
