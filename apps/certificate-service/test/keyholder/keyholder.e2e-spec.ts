import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { enrollDevice, sql, startEnrollApp } from '../fixtures/enroll';
import {
  adminKeyAction,
  putSystemSettings,
  registerKey,
  setOwner,
  SshKeyMaker,
} from '../fixtures/ssh-keys';
import { bearer, loginAdmin } from '../support/sessions';
import type { TestApp } from '../support/test-app';

const METRIC = 'certsvc_keyholder_requests_without_token_total';

/** Current value of the without-token counter for one label pair. */
async function withoutToken(t: TestApp, gate: string, reason: string): Promise<number> {
  const metric = t.metrics.registry.getSingleMetric(METRIC);
  if (!metric) throw new Error(`${METRIC} is not registered`);
  const { values } = await metric.get();
  return values.find((v) => v.labels.gate === gate && v.labels.reason === reason)?.value ?? 0;
}

/** GET from a chosen local loopback address (the socket's source), through a listening app. */
function getFrom(
  port: number,
  localAddress: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // agent: false — one connection per request, closed at the end (no keep-alive socket left).
    const req = httpRequest(
      { host: '127.0.0.1', port, path, localAddress, headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('Key-holder API - /api/v1/keyholder/keys, /revocations, tokens, gate and networks', () => {
  let t: TestApp;
  let admin: string;
  let keys: SshKeyMaker;
  /** An active key of alice (personal login `alice`), a member of the alias `deploy`. */
  let alice: { id: string; publicLine: string; fingerprint: string };
  /** An active key of bob (personal login `bob`), in no alias. */
  let bob: { id: string; publicLine: string };

  const asAdmin = () => ({
    get: (path: string) => t.http.get(path).set(...bearer(admin)),
    post: (path: string) => t.http.post(path).set(...bearer(admin)),
    put: (path: string) => t.http.put(path).set(...bearer(admin)),
    delete: (path: string) => t.http.delete(path).set(...bearer(admin)),
  });

  async function activeKeyOf(owner: string, comment: string) {
    const device = await enrollDevice(t);
    await setOwner(t, admin, device.serial, owner);
    const files = keys.make('ed25519', comment);
    const key = await registerKey(t, device, files.publicLine);
    await adminKeyAction(t, admin, key.id, 'approve');
    return { id: key.id, publicLine: files.publicLine, fingerprint: files.fingerprint };
  }

  async function createToken(principals?: string[] | null): Promise<{ id: string; token: string }> {
    const res = await asAdmin()
      .post('/api/v1/admin/keyholder-tokens')
      .send({ name: 'web-01', ...(principals === undefined ? {} : { principals }) })
      .expect(201);
    return res.body as { id: string; token: string };
  }

  const keysFor = (login: string, token?: string) => {
    const req = t.http.get(`/api/v1/keyholder/keys?login=${login}`);
    return token ? req.set('x-keyholder-token', token) : req;
  };

  /** `type base64` of every served line (the trailing `certsvc:<id>` comment dropped). */
  const served = (text: string) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ').slice(0, 2).join(' '));
  const bare = (publicLine: string) => publicLine.split(' ').slice(0, 2).join(' ');

  beforeAll(async () => {
    // 127.0.0.1 is a trusted proxy: X-Forwarded-For from it names the client. 127.0.0.2 is not.
    t = await startEnrollApp({ env: { CERTSVC_TRUSTED_PROXIES: '127.0.0.1/32' } });
    admin = (await loginAdmin(t)).accessToken;
    keys = new SshKeyMaker();
    alice = await activeKeyOf('alice@example.com', 'alice@laptop');
    bob = await activeKeyOf('bob@example.com', 'bob@laptop');
    await asAdmin()
      .post('/api/v1/admin/principal-aliases')
      .send({ name: 'deploy', members: ['alice@example.com'] })
      .expect(201);
  });
  afterAll(async () => {
    keys.cleanup();
    await t.close();
  });

  describe('keys for a login (AuthorizedKeysCommand)', () => {
    it('serves the owner`s active keys under the personal login as authorized_keys lines', async () => {
      const res = await keysFor('alice').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toBe(`${bare(alice.publicLine)} certsvc:${alice.id}\n`);
      expect(served((await keysFor('bob').expect(200)).text)).toEqual([bare(bob.publicLine)]);
    });

    it('serves the keys of the members of an enabled alias, none when disabled', async () => {
      expect(served((await keysFor('deploy').expect(200)).text)).toEqual([bare(alice.publicLine)]);
      await asAdmin()
        .put('/api/v1/admin/principal-aliases/deploy/enabled')
        .send({ enabled: false })
        .expect(200);
      expect((await keysFor('deploy').expect(200)).text).toBe('');
      await asAdmin()
        .put('/api/v1/admin/principal-aliases/deploy/enabled')
        .send({ enabled: true })
        .expect(200);
      expect(served((await keysFor('deploy').expect(200)).text)).toEqual([bare(alice.publicLine)]);
    });

    it('serves no pending key and answers an unknown login with an empty list', async () => {
      const device = await enrollDevice(t);
      await setOwner(t, admin, device.serial, 'carol@example.com');
      await registerKey(t, device, keys.make().publicLine);
      expect((await keysFor('carol').expect(200)).text).toBe('');
      expect((await keysFor('nobody').expect(200)).text).toBe('');
    });

    it.each([['Alice'], ['-rf'], ['a.b'], ['x'.repeat(33)], ['']])(
      'refuses the login %p with 400',
      async (login) => {
        const res = await t.http
          .get(`/api/v1/keyholder/keys?login=${encodeURIComponent(login)}`)
          .expect(400);
        expect(res.body.code).toBe('invalid_request');
      },
    );

    it('stops serving a key once revoked and lists the revocation in the feed after the cursor', async () => {
      const start = await t.http.get('/api/v1/keyholder/revocations').expect(200);
      const cursor = start.body.next_after as string;
      const dave = await activeKeyOf('dave@example.com', 'dave@laptop');
      expect(served((await keysFor('dave').expect(200)).text)).toEqual([bare(dave.publicLine)]);
      await adminKeyAction(t, admin, dave.id, 'revoke');
      expect((await keysFor('dave').expect(200)).text).toBe('');

      const feed = await t.http.get(`/api/v1/keyholder/revocations?after=${cursor}`).expect(200);
      expect(feed.body.items).toEqual([
        expect.objectContaining({
          kind: 'key',
          ssh_key_id: dave.id,
          fingerprint: dave.fingerprint,
          principals: ['dave'],
        }),
      ]);
      expect(BigInt(feed.body.next_after)).toBeGreaterThan(BigInt(cursor));
      const after = await t.http
        .get(`/api/v1/keyholder/revocations?after=${feed.body.next_after}`)
        .expect(200);
      expect(after.body).toEqual({ items: [], next_after: feed.body.next_after });
    });

    it('pages the feed with limit= and misses nothing between pages', async () => {
      const start = (await t.http.get('/api/v1/keyholder/revocations').expect(200)).body
        .next_after as string;
      const made = [
        await activeKeyOf('erin@example.com', 'erin@a'),
        await activeKeyOf('erin@example.com', 'erin@b'),
        await activeKeyOf('erin@example.com', 'erin@c'),
      ];
      for (const key of made) await adminKeyAction(t, admin, key.id, 'revoke');
      const seen: string[] = [];
      let cursor = start;
      for (let page = 0; page < 5; page += 1) {
        const res = await t.http
          .get(`/api/v1/keyholder/revocations?after=${cursor}&limit=2`)
          .expect(200);
        if (res.body.items.length === 0) break;
        seen.push(...(res.body.items as { ssh_key_id: string }[]).map((i) => i.ssh_key_id));
        cursor = res.body.next_after as string;
      }
      expect(seen).toEqual(made.map((k) => k.id));
      await t.http.get('/api/v1/keyholder/revocations?after=-1').expect(400);
      await t.http.get('/api/v1/keyholder/revocations?after=99999999999999999999').expect(400);
    });
  });

  describe('server tokens', () => {
    it('shows the value once, stores only its hash and never lists it', async () => {
      const created = await createToken();
      expect(created.token).toMatch(/^wkh_/);
      const list = await asAdmin().get('/api/v1/admin/keyholder-tokens').expect(200);
      expect(JSON.stringify(list.body)).not.toContain(created.token);
      expect(list.body.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: created.id, token_prefix: created.token.slice(0, 8) }),
        ]),
      );
      const rows = await sql<{ token_hash: string }>(
        t,
        'SELECT token_hash FROM keyholder_tokens WHERE id = $1',
        [created.id],
      );
      expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0].token_hash).not.toContain(created.token);
    });

    it('a token restricted to principals cannot read other principals` keys', async () => {
      const restricted = await createToken(['alice']);
      const mine = await keysFor('alice', restricted.token).expect(200);
      expect(served(mine.text)).toEqual([bare(alice.publicLine)]);
      for (const login of ['bob', 'deploy']) {
        const res = await keysFor(login, restricted.token).expect(403);
        expect(res.body.code).toBe('keyholder_principal_denied');
      }
      // The same restriction holds in the revocation feed: only revocations naming alice.
      const feed = await t.http
        .get('/api/v1/keyholder/revocations')
        .set('x-keyholder-token', restricted.token)
        .expect(200);
      for (const item of feed.body.items as { principals: string[] }[]) {
        expect(item.principals).toContain('alice');
      }

      const widened = await asAdmin()
        .put(`/api/v1/admin/keyholder-tokens/${restricted.id}/principals`)
        .send({ principals: ['alice', 'deploy'] })
        .expect(200);
      expect(widened.body.principals).toEqual(['alice', 'deploy']);
      await keysFor('deploy', restricted.token).expect(200);
      await keysFor('bob', restricted.token).expect(403);
      await asAdmin()
        .put(`/api/v1/admin/keyholder-tokens/${restricted.id}/principals`)
        .send({ principals: null })
        .expect(200);
      expect(served((await keysFor('bob', restricted.token).expect(200)).text)).toEqual([
        bare(bob.publicLine),
      ]);
      await asAdmin()
        .put(`/api/v1/admin/keyholder-tokens/${restricted.id}/principals`)
        .send({ principals: ['Not A Login'] })
        .expect(400);
    });

    it('revokes a token: 409 a second time, 404 for an unknown id', async () => {
      const created = await createToken();
      const revoked = await asAdmin()
        .delete(`/api/v1/admin/keyholder-tokens/${created.id}`)
        .expect(200);
      expect(revoked.body.revoked_at).toEqual(expect.any(String));
      const again = await asAdmin()
        .delete(`/api/v1/admin/keyholder-tokens/${created.id}`)
        .expect(409);
      expect(again.body.code).toBe('keyholder_token_revoked');
      const unknown = await asAdmin()
        .delete('/api/v1/admin/keyholder-tokens/00000000-0000-4000-8000-000000000000')
        .expect(404);
      expect(unknown.body.code).toBe('keyholder_token_not_found');
    });
  });

  describe('token gate', () => {
    afterAll(() => putSystemSettings(t, admin, { keyholder_token_gate: 'off' }));

    const gate = async (step: string) => {
      await putSystemSettings(t, admin, { keyholder_token_gate: step });
      const res = await asAdmin().get('/api/v1/admin/keyholder-token-gate').expect(200);
      expect(res.body).toMatchObject({ gate: step, header: 'X-Keyholder-Token' });
    };

    it('off (default): no token needed, nothing counted', async () => {
      const res = await asAdmin().get('/api/v1/admin/keyholder-token-gate').expect(200);
      expect(res.body.gate).toBe('off');
      const before = await Promise.all([
        withoutToken(t, 'observe', 'missing'),
        withoutToken(t, 'required', 'missing'),
      ]);
      await keysFor('alice').expect(200);
      await keysFor('alice', 'wkh_not-a-real-token').expect(200);
      expect(
        await Promise.all([
          withoutToken(t, 'observe', 'missing'),
          withoutToken(t, 'required', 'missing'),
        ]),
      ).toEqual(before);
    });

    it('observe: a request without a valid token is counted and answered', async () => {
      await gate('observe');
      const valid = await createToken();
      const missing = await withoutToken(t, 'observe', 'missing');
      const invalid = await withoutToken(t, 'observe', 'invalid');

      expect(served((await keysFor('alice').expect(200)).text)).toEqual([bare(alice.publicLine)]);
      expect(await withoutToken(t, 'observe', 'missing')).toBe(missing + 1);

      await keysFor('alice', 'wkh_not-a-real-token').expect(200);
      expect(await withoutToken(t, 'observe', 'invalid')).toBe(invalid + 1);

      await keysFor('alice', valid.token).expect(200);
      expect(await withoutToken(t, 'observe', 'missing')).toBe(missing + 1);
      expect(await withoutToken(t, 'observe', 'invalid')).toBe(invalid + 1);
    });

    it('required: a request without a valid token is counted and refused with 401', async () => {
      await gate('required');
      const valid = await createToken();
      const missing = await withoutToken(t, 'required', 'missing');
      const invalid = await withoutToken(t, 'required', 'invalid');

      const none = await keysFor('alice').expect(401);
      expect(none.body.code).toBe('keyholder_token_required');
      expect(await withoutToken(t, 'required', 'missing')).toBe(missing + 1);

      const wrong = await keysFor('alice', 'wkh_not-a-real-token').expect(401);
      expect(wrong.body.code).toBe('keyholder_token_invalid');
      expect(await withoutToken(t, 'required', 'invalid')).toBe(invalid + 1);
      await t.http
        .get('/api/v1/keyholder/revocations')
        .set('x-keyholder-token', 'x'.repeat(5000))
        .expect(401);
      expect(await withoutToken(t, 'required', 'invalid')).toBe(invalid + 2);

      const ok = await keysFor('alice', valid.token).expect(200);
      expect(served(ok.text)).toEqual([bare(alice.publicLine)]);
      expect(await withoutToken(t, 'required', 'missing')).toBe(missing + 1);

      // A revoked token stops working at once.
      await asAdmin().delete(`/api/v1/admin/keyholder-tokens/${valid.id}`).expect(200);
      const revoked = await keysFor('alice', valid.token).expect(401);
      expect(revoked.body.code).toBe('keyholder_token_invalid');
      expect(await withoutToken(t, 'required', 'invalid')).toBe(invalid + 3);
    });

    it('refuses an unknown gate step with 400 and keeps the step', async () => {
      await gate('observe');
      await asAdmin()
        .put('/api/v1/settings/system')
        .send({ keyholder_token_gate: 'sometimes' })
        .expect(400);
      expect((await asAdmin().get('/api/v1/admin/keyholder-token-gate')).body.gate).toBe('observe');
    });
  });

  describe('allowed networks', () => {
    afterAll(() =>
      putSystemSettings(t, admin, { keyholder_allowed_networks: ['127.0.0.0/8', '::1/128'] }),
    );

    it('refuses a client outside the allowed networks with 403, before the token is looked at', async () => {
      await putSystemSettings(t, admin, { keyholder_allowed_networks: ['192.0.2.0/24'] });
      const valid = await createToken();
      const direct = await keysFor('alice', valid.token).expect(403);
      expect(direct.body.code).toBe('keyholder_network_denied');
      const outside = await keysFor('alice', valid.token)
        .set('x-forwarded-for', '198.51.100.7')
        .expect(403);
      expect(outside.body.code).toBe('keyholder_network_denied');
      // Through the trusted proxy (127.0.0.1) from an allowed client address.
      const inside = await keysFor('alice').set('x-forwarded-for', '192.0.2.44').expect(200);
      expect(served(inside.text)).toEqual([bare(alice.publicLine)]);
      await t.http
        .get('/api/v1/keyholder/revocations')
        .set('x-forwarded-for', '203.0.113.1')
        .expect(403);
    });

    it('judges the socket address of a connection from a second loopback address (127.0.0.2)', async () => {
      await putSystemSettings(t, admin, { keyholder_allowed_networks: ['127.0.0.1/32'] });
      await t.app.listen(0, '127.0.0.1');
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      const path = '/api/v1/keyholder/keys?login=alice';
      const fromOne = await getFrom(port, '127.0.0.1', path);
      expect(fromOne.status).toBe(200);
      const fromTwo = await getFrom(port, '127.0.0.2', path);
      expect(fromTwo.status).toBe(403);
      expect(JSON.parse(fromTwo.body).code).toBe('keyholder_network_denied');
      // 127.0.0.2 is no trusted proxy: its X-Forwarded-For is not believed.
      const forged = await getFrom(port, '127.0.0.2', path, { 'x-forwarded-for': '127.0.0.1' });
      expect(forged.status).toBe(403);
    });

    it('refuses invalid networks in the setting with 400', async () => {
      for (const bad of ['10.0.0.0/33', 'not-a-network', '::1/129']) {
        await asAdmin()
          .put('/api/v1/settings/system')
          .send({ keyholder_allowed_networks: [bad] })
          .expect(400);
      }
    });
  });
});

describe('Key-holder API - rate limit per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_KEYHOLDER_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once the limit of the minute is spent', async () => {
    for (let i = 0; i < 3; i += 1)
      await t.http.get('/api/v1/keyholder/keys?login=alice').expect(200);
    const res = await t.http.get('/api/v1/keyholder/keys?login=alice').expect(429);
    expect(res.body.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});
