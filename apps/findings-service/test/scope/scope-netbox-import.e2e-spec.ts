import { freePort } from '@platform/testing';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { bearer, type Auth } from '../support/catalog';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { startNetboxStandIn, type NetboxStandIn } from './netbox-stand-in';
import { addEntries, exportText, freshScopeProject, member, send } from './scope-support';

/**
 * The NetBox import against a loopback stand-in. Loopback is an internal address: the app is
 * started with the outbound client's development settings OUTBOUND_ALLOW_HTTP and
 * OUTBOUND_ALLOW_LOCAL_DIAL; a second app without them shows the guard refusing the address.
 */
const TOKEN = 'nb-0123456789abcdef0123456789abcdef01234567';

let t: TestApp;
let strict: TestApp;
let admin: Login;
let asAdmin: Auth;
let netbox: NetboxStandIn;

interface ImportResult {
  system: string;
  prefixes_read: number;
  addresses_read: number;
  added: number;
  already_present: number;
  skipped_overlap: number;
  skipped_invalid: number;
  skipped: { value: string; reason: string }[];
}

beforeAll(async () => {
  // One signing secret, so the administrator's token works on both apps.
  const JWT_SECRET = randomBytes(32).toString('hex');
  t = await startTestApp({
    JWT_SECRET,
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_LOCAL_DIAL: 'true',
  });
  strict = await startTestApp({ JWT_SECRET, OUTBOUND_ALLOW_HTTP: 'true' }, { db: t.db });
  admin = await loginAdmin(t);
  asAdmin = bearer(admin);
  netbox = await startNetboxStandIn(TOKEN);
});
afterAll(async () => {
  await netbox.close();
  await strict.close();
  await t.close();
});
beforeEach(() => {
  netbox.failWith = undefined;
  netbox.rewriteNext = undefined;
  netbox.maxPageSize = 1000;
  netbox.requests.length = 0;
  netbox.prefixes = [];
  netbox.addresses = [];
});

const importFrom = (app: TestApp, base: string, body: Record<string, unknown>, system = 'netbox') =>
  send<ImportResult>(request(app.url).post(`${base}/import/${system}`).send(body), asAdmin);

describe('Scope import - POST /api/v1/projects/{id}/scope/import/netbox', () => {
  it('imports prefixes and addresses page by page (following next), with the token, idempotently', async () => {
    const { base } = await freshScopeProject(t, admin);
    netbox.maxPageSize = 2;
    netbox.prefixes = [
      { id: 1, prefix: '10.10.0.0/24' },
      { id: 2, prefix: '10.20.0.0/16' },
      { id: 3, prefix: '2001:db8:100::/48' },
      { id: 4, prefix: '0.0.0.0/0' },
      { id: 5, prefix: '10.20.5.0/24' },
    ];
    netbox.addresses = [
      { id: 11, address: '192.0.2.5/24' },
      { id: 12, address: '2001:db8:200::1/64' },
      { id: 13, address: '10.10.0.7/24' },
      { id: 14, address: '192.0.2.5/32' },
    ];
    const res = await importFrom(t, base, { base_url: `${netbox.url}/api/`, token: TOKEN });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      system: 'netbox',
      prefixes_read: 5,
      addresses_read: 4,
      added: 5,
      already_present: 1,
      skipped_overlap: 2,
      skipped_invalid: 1,
      skipped: [
        { value: '0.0.0.0/0', reason: expect.stringContaining('wider than allowed') },
        { value: '10.20.5.0/24', reason: 'overlaps the entry 10.20.0.0/16' },
        { value: '10.10.0.7', reason: 'overlaps the entry 10.10.0.0/24' },
      ],
    });
    // pages of two, each with the token
    expect(netbox.requests.map((r) => `${r.path}?${r.query.get('offset') ?? '0'}`)).toEqual([
      '/api/ipam/prefixes/?0',
      '/api/ipam/prefixes/?2',
      '/api/ipam/prefixes/?4',
      '/api/ipam/ip-addresses/?0',
      '/api/ipam/ip-addresses/?2',
    ]);
    expect(new Set(netbox.requests.map((r) => r.authorization))).toEqual(
      new Set([`Token ${TOKEN}`]),
    );
    expect(await exportText(t, asAdmin, base)).toEqual([
      '10.10.0.0/24',
      '10.20.0.0/16',
      '192.0.2.5',
      '2001:db8:100::/48',
      '2001:db8:200::1',
    ]);
    const entries = await send<{ items: { origin: string; origin_ref: string }[] }>(
      request(t.url).get(`${base}?limit=2`),
      asAdmin,
    );
    expect(entries.body.data?.items).toEqual([
      expect.objectContaining({ origin: 'netbox', origin_ref: 'netbox prefix 1' }),
      expect.objectContaining({ origin: 'netbox', origin_ref: 'netbox prefix 2' }),
    ]);
    const again = await importFrom(t, base, { base_url: netbox.url, token: TOKEN });
    expect(again.body.data).toMatchObject({ added: 0, already_present: 6, skipped_overlap: 2 });
    // the token is never returned
    expect(JSON.stringify(again.body)).not.toContain(TOKEN);
  });

  it('passes the filters (tag: every one, status: any, vrf_id) and can import excludes', async () => {
    const { base } = await freshScopeProject(t, admin);
    netbox.prefixes = [
      { id: 1, prefix: '10.1.0.0/24', tags: ['scan', 'dmz'], status: 'active', vrf_id: null },
      { id: 2, prefix: '10.2.0.0/24', tags: ['scan'], status: 'active', vrf_id: null },
      { id: 3, prefix: '10.3.0.0/24', tags: ['scan', 'dmz'], status: 'reserved', vrf_id: null },
      { id: 4, prefix: '10.4.0.0/24', tags: ['scan', 'dmz'], status: 'deprecated', vrf_id: null },
      { id: 5, prefix: '10.5.0.0/24', tags: ['scan', 'dmz'], status: 'active', vrf_id: 7 },
    ];
    const res = await importFrom(t, base, {
      base_url: netbox.url,
      token: TOKEN,
      objects: ['prefixes'],
      tag: ['scan', 'dmz'],
      status: ['active', 'reserved'],
      vrf_id: 'null',
      mode: 'exclude',
    });
    expect(res.body.data).toMatchObject({ prefixes_read: 2, addresses_read: 0, added: 2 });
    const [asked] = netbox.requests;
    expect(asked.query.getAll('tag')).toEqual(['scan', 'dmz']);
    expect(asked.query.getAll('status')).toEqual(['active', 'reserved']);
    expect(asked.query.get('vrf_id')).toBe('null');
    const entries = await send<{ items: { mode: string; value: string }[] }>(
      request(t.url).get(base),
      asAdmin,
    );
    expect(entries.body.data?.items.map((e) => `${e.mode} ${e.value}`)).toEqual([
      'exclude 10.1.0.0/24',
      'exclude 10.3.0.0/24',
    ]);
  });

  it('a wrong token: 422 scope_ipam_token_refused, localized, nothing imported', async () => {
    const { base } = await freshScopeProject(t, admin);
    netbox.prefixes = [{ id: 1, prefix: '10.9.0.0/24' }];
    const res = await send(
      request(t.url)
        .post(`${base}/import/netbox`)
        .set('Accept-Language', 'ru')
        .send({ base_url: netbox.url, token: 'wrong-token' }),
      asAdmin,
    );
    expect([res.status, res.body.code]).toEqual([422, 'scope_ipam_token_refused']);
    expect(res.body.error).toBe(
      'система управления IP-адресами отклонила токен (HTTP 403); ничего не импортировано',
    );
    expect(res.text).not.toContain('wrong-token');
    expect(await exportText(t, asAdmin, base)).toEqual([]);
  });

  it('NetBox failing (500), answering garbage, or unreachable: 502 in the envelope, nothing imported', async () => {
    const { base } = await freshScopeProject(t, admin);
    netbox.failWith = { status: 500, body: '<h1>Server Error</h1>', contentType: 'text/html' };
    const failing = await importFrom(t, base, { base_url: netbox.url, token: TOKEN });
    expect([failing.status, failing.body.code]).toEqual([502, 'scope_ipam_unavailable']);
    expect(failing.body.error).toContain('HTTP 500');

    netbox.failWith = { status: 200, body: '<html>login</html>', contentType: 'text/html' };
    const garbage = await importFrom(t, base, { base_url: netbox.url, token: TOKEN });
    expect([garbage.status, garbage.body.code]).toEqual([502, 'scope_ipam_answer_invalid']);

    netbox.failWith = { status: 200, body: JSON.stringify({ results: [{ id: 1 }] }) };
    const shape = await importFrom(t, base, { base_url: netbox.url, token: TOKEN });
    expect([shape.status, shape.body.code]).toEqual([502, 'scope_ipam_answer_invalid']);

    netbox.failWith = { status: 404, body: '{"detail":"Not found."}' };
    const notNetbox = await importFrom(t, base, { base_url: netbox.url, token: TOKEN });
    expect([notNetbox.status, notNetbox.body.code]).toEqual([502, 'scope_ipam_answer_invalid']);

    const closed = await freePort();
    const unreachable = await importFrom(t, base, {
      base_url: `http://127.0.0.1:${closed}`,
      token: TOKEN,
    });
    expect([unreachable.status, unreachable.body.code]).toEqual([502, 'scope_ipam_unavailable']);
    expect(unreachable.text).not.toContain(TOKEN);
    expect(await exportText(t, asAdmin, base)).toEqual([]);
  });

  it('a failure on a later page imports nothing (all or nothing)', async () => {
    const { base } = await freshScopeProject(t, admin);
    netbox.maxPageSize = 1;
    netbox.prefixes = [
      { id: 1, prefix: '10.6.0.0/24' },
      { id: 2, prefix: '10.7.0.0/24' },
    ];
    netbox.rewriteNext = (next) => next.replace('127.0.0.1', 'localhost');
    const elsewhere = await importFrom(t, base, { base_url: netbox.url, token: TOKEN });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([502, 'scope_ipam_answer_invalid']);
    expect(elsewhere.body.error).toContain('another address');
    expect(netbox.requests).toHaveLength(1);
    expect(await exportText(t, asAdmin, base)).toEqual([]);
  });

  it('without OUTBOUND_ALLOW_LOCAL_DIAL the guard refuses the loopback address: 400, NetBox never called', async () => {
    const { base } = await freshScopeProject(t, admin);
    netbox.prefixes = [{ id: 1, prefix: '10.8.0.0/24' }];
    const res = await importFrom(strict, base, { base_url: netbox.url, token: TOKEN });
    expect([res.status, res.body.code]).toEqual([400, 'scope_ipam_url_refused']);
    expect(res.body.error).toContain('address_not_allowed');
    expect(netbox.requests).toEqual([]);
    const named = await importFrom(strict, base, { base_url: 'http://localhost:9', token: TOKEN });
    expect([named.status, named.body.code]).toEqual([400, 'scope_ipam_url_refused']);
    const scheme = await importFrom(strict, base, {
      base_url: 'ftp://netbox.example',
      token: TOKEN,
    });
    expect([scheme.status, scheme.body.code]).toEqual([400, 'scope_ipam_url_refused']);
  });

  it('other IPAM systems are 400 scope_ipam_unsupported; bad bodies 400; only manage_scope', async () => {
    const { id, base } = await freshScopeProject(t, admin);
    const other = await importFrom(t, base, { base_url: netbox.url, token: TOKEN }, 'phpipam');
    expect([other.status, other.body.code]).toEqual([400, 'scope_ipam_unsupported']);
    expect(other.body.error).toBe(
      'IP address management system "phpipam" is not supported (supported: netbox)',
    );
    const noToken = await importFrom(t, base, { base_url: netbox.url });
    expect([noToken.status, noToken.body.code]).toEqual([400, 'validation_failed']);
    const badTag = await importFrom(t, base, { base_url: netbox.url, token: TOKEN, tag: ['a b'] });
    expect([badTag.status, badTag.body.code]).toEqual([400, 'validation_failed']);
    const analyst = await member(t, admin, id, 'analyst');
    const refused = await send(
      request(t.url).post(`${base}/import/netbox`).send({ base_url: netbox.url, token: TOKEN }),
      analyst,
    );
    expect([refused.status, refused.body.code]).toEqual([403, 'permission_denied']);
    expect(netbox.requests).toEqual([]);
  });

  it('an import larger than the perimeter may hold is refused before anything is written', async () => {
    const { base } = await freshScopeProject(t, admin);
    await addEntries(t, asAdmin, base, [{ value: '172.16.0.0/12' }]);
    netbox.failWith = {
      status: 200,
      body: JSON.stringify({ count: 60_000, next: null, previous: null, results: [] }),
    };
    const res = await importFrom(t, base, { base_url: netbox.url, token: TOKEN });
    expect([res.status, res.body.code]).toEqual([422, 'scope_ipam_too_large']);
    expect(await exportText(t, asAdmin, base)).toEqual(['172.16.0.0/12']);
  });
});
