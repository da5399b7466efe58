import request from 'supertest';
import { DataSource } from 'typeorm';
import { freshMember, freshProduct, type Product } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { seedDelivery } from './route-seed';
import { configureChannel, seedChannelPlugin } from './support';

/**
 * GET /api/v1/projects/{id}/notification-deliveries, POST .../{delivery_id}/retry and the
 * `delivery` summary of GET /api/v1/projects/{id}/plugin-channels.
 */
let t: TestApp;
let admin: Login;
let projectAdmin: Login;
let product: Product;
let chat: string;
let mail: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  projectAdmin = await freshMember(t, admin, product.project_id, 'admin');
  chat = await seedChannelPlugin(t, 'routes-chat-channel');
  mail = await seedChannelPlugin(t, 'routes-mail-channel');
});
afterAll(() => t.close());

const get = (path: string, who: Login = projectAdmin) =>
  request(t.url).get(path).set('Authorization', `Bearer ${who.token}`);
const post = (path: string, who: Login = projectAdmin) =>
  request(t.url).post(path).set('Authorization', `Bearer ${who.token}`);
const base = () => `/api/v1/projects/${product.project_id}/notification-deliveries`;

describe('Notification deliveries - /api/v1/projects/{id}/notification-deliveries (GET)', () => {
  it('lists newest first with the last error, filters by state and plugin, pages by cursor', async () => {
    const failed = await seedDelivery(t, product.project_id, chat, 'failed', {
      code: 'rejected',
      message: 'chat not found',
    });
    const delivered = await seedDelivery(t, product.project_id, mail, 'delivered');
    const pending = await seedDelivery(t, product.project_id, chat, 'pending');
    const all = await get(base()).expect(200);
    const items = all.body.data.items as Record<string, unknown>[];
    expect(items.map((i) => i['id'])).toEqual([
      pending.deliveryId,
      delivered.deliveryId,
      failed.deliveryId,
    ]);
    expect(items[2]).toMatchObject({
      notification_id: failed.notificationId,
      kind: 'new_findings',
      plugin_id: chat,
      catalog_plugin_id: 'routes-chat-channel',
      state: 'failed',
      attempts: 1,
      last_error_code: 'rejected',
      last_error_message: 'chat not found',
      delivered_at: null,
    });
    expect(Object.keys(items[0]!).sort()).toEqual(
      [
        'id',
        'notification_id',
        'kind',
        'plugin_id',
        'catalog_plugin_id',
        'state',
        'attempts',
        'next_attempt_at',
        'last_error_code',
        'last_error_message',
        'created_at',
        'updated_at',
        'delivered_at',
      ].sort(),
    );
    expect(all.body.data.next_cursor).toBeNull();
    const onlyFailed = await get(`${base()}?state=failed`).expect(200);
    expect(onlyFailed.body.data.items.map((i: { id: string }) => i.id)).toEqual([
      failed.deliveryId,
    ]);
    const onlyMail = await get(`${base()}?plugin_id=${mail}`).expect(200);
    expect(onlyMail.body.data.items.map((i: { id: string }) => i.id)).toEqual([
      delivered.deliveryId,
    ]);
    const first = await get(`${base()}?limit=2`).expect(200);
    expect(first.body.data.items).toHaveLength(2);
    const second = await get(
      `${base()}?limit=2&cursor=${encodeURIComponent(first.body.data.next_cursor as string)}`,
    ).expect(200);
    expect(second.body.data.items.map((i: { id: string }) => i.id)).toEqual([failed.deliveryId]);
    expect(second.body.data.next_cursor).toBeNull();
  });

  it('refuses bad queries with 400 in the envelope, never 500', async () => {
    for (const query of [
      'state=lost',
      'plugin_id=nope',
      'limit=0',
      'limit=101',
      'cursor=not-a-cursor',
      `cursor=${Buffer.from('["x","y"]').toString('base64url')}`,
    ]) {
      const res = await get(`${base()}?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(typeof res.body.code).toBe('string');
    }
  });
});

describe('Notification deliveries - /api/v1/projects/{id}/notification-deliveries/{delivery_id}/retry (POST)', () => {
  it('puts a failed delivery back to pending, due now, attempts 0', async () => {
    const { deliveryId } = await seedDelivery(t, product.project_id, chat, 'failed', {
      code: 'attempts_exhausted',
      message: '12 attempts failed',
    });
    const res = await post(`${base()}/${deliveryId}/retry`).expect(200);
    expect(res.body.data).toMatchObject({ id: deliveryId, state: 'pending', attempts: 0 });
    expect(Date.parse(res.body.data.next_attempt_at as string)).toBeLessThanOrEqual(
      Date.now() + 1_000,
    );
  });

  it('any other state: 422 delivery_not_retryable naming it; unknown or another project’s: 404', async () => {
    for (const state of ['pending', 'delivered', 'cancelled'] as const) {
      const { deliveryId } = await seedDelivery(t, product.project_id, chat, state);
      const res = await post(`${base()}/${deliveryId}/retry`).expect(422);
      expect(res.body.code).toBe('delivery_not_retryable');
      expect(res.body.error).toContain(state);
    }
    await post(`${base()}/00000000-0000-4000-8000-0000000000ff/retry`).expect(404);
    const other = await freshProduct(t, admin);
    const foreign = await seedDelivery(t, other.project_id, chat, 'failed');
    const res = await post(`${base()}/${foreign.deliveryId}/retry`).expect(404);
    expect(res.body.code).toBe('delivery_not_found');
    const [row] = (await t.app
      .get(DataSource)
      .query(`SELECT state FROM notification_deliveries WHERE id = $1`, [foreign.deliveryId])) as {
      state: string;
    }[];
    expect(row!.state).toBe('failed');
  });
});

describe('Notification deliveries - the delivery summary of /api/v1/projects/{id}/plugin-channels (GET)', () => {
  it('shows pending, the last 24 h and the last failure per channel to members', async () => {
    const p = await freshProduct(t, admin);
    await configureChannel(t, p.project_id, chat, { enabled: true });
    await seedDelivery(t, p.project_id, chat, 'pending');
    await seedDelivery(t, p.project_id, chat, 'delivered');
    await seedDelivery(t, p.project_id, chat, 'failed', { code: 'rejected', message: 'old' });
    await seedDelivery(t, p.project_id, chat, 'failed', { code: 'rejected', message: 'gone 410' });
    const viewer = await freshMember(t, admin, p.project_id, 'viewer');
    const res = await get(`/api/v1/projects/${p.project_id}/plugin-channels`, viewer).expect(200);
    const byId = new Map(
      (res.body.data as { plugin_id: string; delivery: Record<string, unknown> }[]).map((c) => [
        c.plugin_id,
        c.delivery,
      ]),
    );
    expect(byId.get(chat)).toMatchObject({
      pending: 1,
      delivered_24h: 1,
      failed_24h: 2,
      last_failure_message: 'gone 410',
    });
    expect(typeof byId.get(chat)!['last_failure_at']).toBe('string');
    expect(byId.get(mail)).toEqual({
      pending: 0,
      delivered_24h: 0,
      failed_24h: 0,
      last_failure_at: null,
      last_failure_message: null,
    });
  });
});
