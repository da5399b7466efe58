import { createHash } from 'node:crypto';
import request from 'supertest';
import { bearer } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { freshMember, freshProduct, type Product } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { insertProviderRow } from './support/provider-row';

// Configuration - /projects/{id}/ticket-provider/config (GET, PUT) and
// /projects/{id}/ticket-webhook/rotate (POST), GET /ticket-providers.
let t: TestApp;
let admin: Login;
let projectAdmin: Login;
let product: Product;
let providerId: string;
let enricherId: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  projectAdmin = await freshMember(t, admin, product.project_id, 'admin');
  providerId = await insertProviderRow(t, {
    settings: { base_url: 'https://tracker.example.org' },
  });
  enricherId = await insertProviderRow(t, { capabilities: ['finding_enricher'] });
});
afterAll(() => t.close());

const config = () => `/api/v1/projects/${product.project_id}/ticket-provider/config`;
const put = (body: object) => bearer(projectAdmin).apply(request(t.url).put(config()).send(body));
const get = () => bearer(projectAdmin).apply(request(t.url).get(config()));
const rotate = () =>
  bearer(projectAdmin).apply(
    request(t.url).post(`/api/v1/projects/${product.project_id}/ticket-webhook/rotate`),
  );

describe('Ticket provider configuration', () => {
  it('lists installed ticketing providers only', async () => {
    const res = await bearer(projectAdmin)
      .apply(request(t.url).get('/api/v1/ticket-providers'))
      .expect(200);
    const ids = (res.body.data as { plugin_id: string }[]).map((p) => p.plugin_id);
    expect(ids).toContain(providerId);
    expect(ids).not.toContain(enricherId);
    expect(res.body.data.find((p: { plugin_id: string }) => p.plugin_id === providerId)).toEqual(
      expect.objectContaining({ version: '1.0.0', enabled: true }),
    );
  });

  it('shows no provider before one is chosen, and refuses a rotation then (422)', async () => {
    const res = await get().expect(200);
    expect(res.body.data).toMatchObject({
      project_id: product.project_id,
      plugin_id: null,
      tracker_closed_action: 'none',
      sync_status_to_tracker: true,
      webhook: { secret_set: false, rotated_at: null },
    });
    expect((await rotate().expect(422)).body.code).toBe('ticket_provider_not_configured');
  });

  it('refuses what is not a provider, unknown settings, bad options, a wider egress (400)', async () => {
    const bad = [
      { plugin_id: enricherId, settings: {} },
      { plugin_id: providerId, settings: { color: 'red' } },
      { plugin_id: providerId, settings: {}, tracker_closed_action: 'delete' },
      { plugin_id: providerId, settings: { base_url: 'https://evil.example.net' } },
      { plugin_id: 'not-a-uuid', settings: {} },
    ];
    for (const body of bad) {
      const res = await put(body);
      expect([res.status, res.body.code, body]).toEqual([400, 'validation_failed', body]);
    }
    expect((await get()).body.data.plugin_id).toBeNull();
  });

  it('stores the provider, its settings and options; secrets never shown, kept when empty', async () => {
    const res = await put({
      plugin_id: providerId,
      settings: {
        base_url: 'https://jira.example.com',
        project_key: 'SEC',
        api_token: 'tok-secret-value-1',
      },
      default_target: 'SEC',
      tracker_closed_action: 'mark_fixed',
      sync_status_to_tracker: false,
    }).expect(200);
    expect(res.body.data).toMatchObject({
      plugin_id: providerId,
      settings: { base_url: 'https://jira.example.com', project_key: 'SEC' },
      secret_settings_set: ['api_token'],
      default_target: 'SEC',
      tracker_closed_action: 'mark_fixed',
      sync_status_to_tracker: false,
    });
    expect(JSON.stringify(res.body)).not.toContain('tok-secret-value-1');
    // The installation's own URL host is permitted too; an empty secret keeps the stored one.
    const again = await put({
      plugin_id: providerId,
      settings: { base_url: 'https://tracker.example.org/jira', api_token: '' },
    }).expect(200);
    expect(again.body.data).toMatchObject({
      secret_settings_set: ['api_token'],
      default_target: 'SEC',
      tracker_closed_action: 'mark_fixed',
    });
    const stored = await withDb(t, (db) =>
      db.query<{ secret_settings: string }>(
        `SELECT secret_settings FROM project_channel_configs
          WHERE project_id = $1 AND installed_plugin_id = $2`,
        [product.project_id, providerId],
      ),
    );
    expect(stored.rows[0]?.secret_settings).toBeTruthy();
    expect(stored.rows[0]?.secret_settings).not.toContain('tok-secret-value-1');
  });

  it('rotates the webhook secret: shown once, stored as a hash, the previous one kept a day', async () => {
    const first = await rotate().expect(200);
    const secret = first.body.data.secret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.body.data.webhook_url).toBe(
      `/api/v1/webhooks/ticketing/${product.project_id}/${secret}`,
    );
    expect(first.body.data.previous_valid_until).toBeNull();
    const shown = await get().expect(200);
    expect(JSON.stringify(shown.body)).not.toContain(secret);
    expect(shown.body.data.webhook).toMatchObject({
      secret_set: true,
      url_template: `/api/v1/webhooks/ticketing/${product.project_id}/{secret}`,
    });
    const second = await rotate().expect(200);
    expect(second.body.data.secret).not.toBe(secret);
    const until = Date.parse(second.body.data.previous_valid_until as string);
    expect(Math.abs(until - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    const row = await withDb(t, (db) =>
      db.query<{ webhook_secret_hash: Buffer; previous_secret_hash: Buffer }>(
        `SELECT webhook_secret_hash, previous_secret_hash FROM project_ticket_settings
          WHERE project_id = $1`,
        [product.project_id],
      ),
    );
    const sha = (s: string) => createHash('sha256').update(s).digest();
    expect(row.rows[0]?.webhook_secret_hash.equals(sha(second.body.data.secret))).toBe(true);
    expect(row.rows[0]?.previous_secret_hash.equals(sha(secret))).toBe(true);
  });
});
