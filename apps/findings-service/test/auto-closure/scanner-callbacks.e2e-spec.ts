import request from 'supertest';
import { Clock } from '../../src/app/clock';
import {
  createCallbackKey,
  query,
  sendCallback,
  sign,
  type CallbackKey,
} from '../support/auto-closure';
import { bearer } from '../support/catalog';
import { freshLogin, freshProduct, seedFindings, type Product } from '../support/findings-seed';
import type { Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { loginAdmin } from '../support/sessions';

/**
 * POST /api/v1/scanner-callbacks/verify-finding: signed by a key (X-Scanner-Key-Id), a timestamp
 * (X-Scanner-Timestamp) and an HMAC-SHA256 over `<timestamp>.<body>` (X-Scanner-Signature); keys
 * managed by administrators, rotated with a window in which both keys are valid.
 */
let t: TestApp;
let admin: Login;
let product: Product;
let finding: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  [finding] = await seedFindings(t, product, [{}]);
});

afterAll(async () => {
  jest.restoreAllMocks();
  await t?.close();
});

const absent = () => [{ finding_id: finding, result: 'absent' as const }];

async function verificationsOf(id: string): Promise<{ origin: string; result: string }[]> {
  return query(t, `SELECT origin, result FROM finding_verifications WHERE finding_id = $1`, [id]);
}

describe('Verify finding - /api/v1/scanner-callbacks/verify-finding (POST)', () => {
  let key: CallbackKey;
  beforeAll(async () => {
    key = await createCallbackKey(t, admin, { name: 'scanner' });
  });

  it('records a correctly signed answer on the finding', async () => {
    const before = (await verificationsOf(finding)).length;
    const res = await sendCallback(t, key, absent());
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ recorded: 1, ignored: [], closed: 0 });
    const after = await verificationsOf(finding);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ origin: 'scanner', result: 'absent' });
  });

  it('refuses a wrong signature, a changed body and a missing header, storing nothing', async () => {
    const before = (await verificationsOf(finding)).length;
    const ts = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ results: absent() });
    const wrongKey = await sendCallback(t, key, absent(), {
      body,
      timestamp: ts,
      signature: sign('not-the-secret', ts, body),
    });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body).toMatchObject({ code: 'callback_signature_invalid' });
    const tampered = await sendCallback(t, key, absent(), {
      body: JSON.stringify({ results: [{ finding_id: finding, result: 'present' }] }),
      timestamp: ts,
      signature: sign(key.secret, ts, body),
    });
    expect(tampered.status).toBe(401);
    const missing = await request(t.url)
      .post('/api/v1/scanner-callbacks/verify-finding')
      .set('X-Scanner-Key-Id', key.key_id)
      .send({ results: absent() });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ code: 'callback_signature_missing' });
    const unknown = await sendCallback(
      t,
      { key_id: 'sck_0000000000000000', secret: key.secret },
      absent(),
    );
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ code: 'callback_key_unknown' });
    expect(await verificationsOf(finding)).toHaveLength(before);
  });

  it('refuses a stale or future timestamp', async () => {
    // The service's clock is held still: on a loaded machine a second can pass between the test
    // reading the time and the service reading it, which moved "301 s ahead" inside the window.
    const now = Math.floor(Date.now() / 1000);
    const clock = jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(new Date(now * 1000));
    try {
      for (const ts of [now - 301, now + 301]) {
        const res = await sendCallback(t, key, absent(), { timestamp: ts });
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ code: 'callback_timestamp_stale' });
      }
      for (const ts of [now - 300, now + 300]) {
        expect((await sendCallback(t, key, absent(), { timestamp: ts })).status).toBe(200);
      }
    } finally {
      clock.mockRestore();
    }
  });

  it('accepts a signed request once: the replayed body is refused', async () => {
    const ts = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ results: absent(), scanner: 'replay-test' });
    const first = await sendCallback(t, key, [], { body, timestamp: ts });
    expect(first.status).toBe(200);
    const replay = await sendCallback(t, key, [], { body, timestamp: ts });
    expect(replay.status).toBe(409);
    expect(replay.body).toMatchObject({ code: 'callback_replayed' });
  });

  it('refuses a retired key at once', async () => {
    const leaked = await createCallbackKey(t, admin, { name: 'leaked' });
    expect((await sendCallback(t, leaked, absent())).status).toBe(200);
    await bearer(admin)
      .apply(request(t.url).delete(`/api/v1/admin/scanner-callback-keys/${leaked.id}`))
      .expect(204);
    const res = await sendCallback(t, leaked, absent());
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'callback_key_retired' });
  });

  it('accepts both keys during a rotation window and only the new one after it', async () => {
    const old = await createCallbackKey(t, admin, { name: 'rotating' });
    const rotated = await bearer(admin)
      .apply(
        request(t.url)
          .post(`/api/v1/admin/scanner-callback-keys/${old.id}/rotate`)
          .send({ window_hours: 2 }),
      )
      .expect(201);
    const successor = rotated.body.data as CallbackKey & { state: string };
    expect(successor.key_id).not.toBe(old.key_id);
    expect(successor.secret).toMatch(/^scs_/);
    expect((await sendCallback(t, old, absent())).status).toBe(200);
    expect((await sendCallback(t, successor, absent())).status).toBe(200);

    const later = new Date(Date.now() + 3 * 3_600_000);
    const clock = jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(later);
    try {
      const ts = Math.floor(later.getTime() / 1000);
      const refused = await sendCallback(t, old, absent(), { timestamp: ts });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 'callback_key_retired' });
      expect((await sendCallback(t, successor, absent(), { timestamp: ts })).status).toBe(200);
    } finally {
      clock.mockRestore();
    }
    const list = await bearer(admin)
      .apply(request(t.url).get('/api/v1/admin/scanner-callback-keys'))
      .expect(200);
    const listed = (list.body.data as Record<string, unknown>[]).find((k) => k.id === old.id);
    expect(listed).toMatchObject({ state: 'rotating', replaced_by: successor.id });
    expect(JSON.stringify(list.body)).not.toContain(old.secret);
    // A key that was already rotated cannot be rotated again (its successor is the one to rotate).
    await bearer(admin)
      .apply(request(t.url).post(`/api/v1/admin/scanner-callback-keys/${old.id}/rotate`).send({}))
      .expect(409);
  });

  it('keeps secrets sealed at rest and never lists them', async () => {
    const k = await createCallbackKey(t, admin, { name: 'sealed' });
    const [row] = await query<{ secret_sealed: string }>(
      t,
      `SELECT secret_sealed FROM scanner_callback_keys WHERE id = $1`,
      [k.id],
    );
    expect(row.secret_sealed).not.toContain(k.secret.slice(4));
    const list = await bearer(admin)
      .apply(request(t.url).get('/api/v1/admin/scanner-callback-keys'))
      .expect(200);
    expect(JSON.stringify(list.body)).not.toContain(k.secret);
    expect(JSON.stringify(list.body)).not.toContain('secret_sealed');
  });

  it('ignores answers about findings outside the key’s project and about unknown requests', async () => {
    const other = await freshProduct(t, admin);
    const [elsewhere] = await seedFindings(t, other, [{}]);
    const scoped = await createCallbackKey(t, admin, {
      name: 'scoped',
      project_id: product.project_id,
    });
    const res = await sendCallback(t, scoped, [
      { finding_id: finding, result: 'absent' },
      { finding_id: elsewhere, result: 'absent' },
      {
        finding_id: finding.replace(/^.{8}/, '00000000'),
        result: 'absent',
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.recorded).toBe(1);
    expect(res.body.data.ignored).toEqual(
      expect.arrayContaining([
        { finding_id: elsewhere, reason: 'unknown_finding' },
        expect.objectContaining({ reason: 'unknown_finding' }),
      ]),
    );
    expect(await verificationsOf(elsewhere)).toEqual([]);
    const wrongRequest = await sendCallback(t, scoped, [
      { finding_id: finding, result: 'absent', request_id: '00000000-0000-4000-8000-000000000000' },
    ]);
    expect(wrongRequest.body.data).toMatchObject({
      recorded: 0,
      ignored: [{ finding_id: finding, reason: 'unknown_request' }],
    });
  });

  it('answers a malformed but signed body with 400, never 500 (fuzz finding)', async () => {
    for (const results of [[null], [[]], ['x'], [{}], [{ finding_id: finding }]]) {
      const res = await sendCallback(t, key, [], { body: JSON.stringify({ results }) });
      expect([JSON.stringify(results), res.status]).toEqual([JSON.stringify(results), 400]);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('answers 404 for the verification endpoint of a project that does not exist (fuzz finding)', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const req of [
      request(t.url).get(`/api/v1/projects/${missing}/verification-endpoint`),
      request(t.url)
        .put(`/api/v1/projects/${missing}/verification-endpoint`)
        .send({ url: 'https://scanner.example.test/verify' }),
      request(t.url).delete(`/api/v1/projects/${missing}/verification-endpoint`),
    ]) {
      const res = await bearer(admin).apply(req);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'project_not_found' });
    }
  });

  it('lets only administrators manage keys', async () => {
    const analyst = await freshLogin(t, admin);
    await bearer(analyst)
      .apply(request(t.url).post('/api/v1/admin/scanner-callback-keys').send({ name: 'x' }))
      .expect(403);
    await bearer(analyst)
      .apply(request(t.url).get('/api/v1/admin/scanner-callback-keys'))
      .expect(403);
  });
});
