import request from 'supertest';
import { DataSource } from 'typeorm';
import { type Auth } from '../support/catalog';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { exportText, freshScopeProject, member, scannerKey, send } from './scope-support';

let t: TestApp;
let admin: Login;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
});
afterAll(() => t.close());

interface Asset {
  domain: string;
  domain_unicode: string;
  ip: string;
  first_seen_at: string;
  last_seen_at: string;
  resolving: boolean;
  stopped_resolving_at: string | null;
  resumed_resolving_at: string | null;
}

const report = (base: string, auth: Auth, assets: Record<string, unknown>[]) =>
  send<{ received: number; added: number; updated: number }>(
    request(t.url).post(`${base}/assets`).send({ assets }),
    auth,
  );
const resolution = (base: string, auth: Auth, domains: Record<string, unknown>[]) =>
  send<{ changed: number; unchanged: number; unknown: string[] }>(
    request(t.url).post(`${base}/resolution-report`).send({ domains }),
    auth,
  );
const assets = async (base: string, auth: Auth, query = '') =>
  (await send<{ items: Asset[] }>(request(t.url).get(`${base}/assets${query}`), auth)).body.data
    ?.items ?? [];

describe('Scope inventory - POST/GET /api/v1/projects/{id}/scope/assets', () => {
  it('upserts domain <-> IP pairs with first and last seen; never widens the perimeter', async () => {
    const { id, base } = await freshScopeProject(t, admin);
    const scanner = await scannerKey(t, admin, id);
    const first = await report(base, scanner, [
      { domain: 'www.Example.com', ip: '192.0.2.10', seen_at: '2026-01-01T10:00:00Z' },
      { domain: 'www.example.com', ip: '2001:DB8::0:10', seen_at: '2026-01-01T10:00:00Z' },
      { domain: 'сайт.пример.рф', ip: '198.51.100.4', seen_at: '2026-01-01T10:00:00Z' },
    ]);
    expect(first.body.data).toEqual({ received: 3, added: 3, updated: 0 });
    const second = await report(base, scanner, [
      { domain: 'www.example.com', ip: '192.0.2.10', seen_at: '2026-01-02T10:00:00Z' },
      { domain: 'www.example.com', ip: '192.0.2.10', seen_at: '2026-01-03T10:00:00Z' },
      { domain: 'api.example.com', ip: '192.0.2.11', seen_at: '2025-12-31T10:00:00Z' },
      // an older sighting does not move last seen back
      {
        domain: 'xn--80aswg.xn--e1afmkfd.xn--p1ai',
        ip: '198.51.100.4',
        seen_at: '2025-06-01T00:00:00Z',
      },
    ]);
    expect(second.body.data).toEqual({ received: 4, added: 1, updated: 2 });
    const all = await assets(base, scanner);
    const byPair = Object.fromEntries(all.map((a) => [`${a.domain} ${a.ip}`, a]));
    expect(Object.keys(byPair).sort()).toEqual([
      'api.example.com 192.0.2.11',
      'www.example.com 192.0.2.10',
      'www.example.com 2001:db8::10',
      'xn--80aswg.xn--e1afmkfd.xn--p1ai 198.51.100.4',
    ]);
    expect(byPair['www.example.com 192.0.2.10']).toMatchObject({
      first_seen_at: '2026-01-01T10:00:00.000Z',
      last_seen_at: '2026-01-03T10:00:00.000Z',
      resolving: true,
    });
    expect(byPair['xn--80aswg.xn--e1afmkfd.xn--p1ai 198.51.100.4']).toMatchObject({
      domain_unicode: 'сайт.пример.рф',
      first_seen_at: '2025-06-01T00:00:00.000Z',
      last_seen_at: '2026-01-01T10:00:00.000Z',
    });
    expect(all[0].last_seen_at).toBe('2026-01-03T10:00:00.000Z');
    expect((await assets(base, scanner, '?domain=WWW.example.com')).length).toBe(2);
    expect(await exportText(t, scanner, base)).toEqual([]);
  });

  it('a resolution report records stopped and resumed resolving with their times', async () => {
    const { id, base } = await freshScopeProject(t, admin);
    const scanner = await scannerKey(t, admin, id);
    await report(base, scanner, [
      { domain: 'old.example.com', ip: '192.0.2.20' },
      { domain: 'old.example.com', ip: '192.0.2.21' },
      { domain: 'live.example.com', ip: '192.0.2.22' },
    ]);
    const stopped = await resolution(base, scanner, [
      { domain: 'old.example.com', resolving: false, observed_at: '2026-02-01T08:00:00Z' },
      { domain: 'live.example.com', resolving: true },
      { domain: 'never-seen.example.com', resolving: false },
    ]);
    expect(stopped.body.data).toEqual({
      changed: 1,
      unchanged: 1,
      unknown: ['never-seen.example.com'],
    });
    let old = await assets(base, scanner, '?domain=old.example.com');
    expect(old.map((a) => [a.resolving, a.stopped_resolving_at, a.resumed_resolving_at])).toEqual([
      [false, '2026-02-01T08:00:00.000Z', null],
      [false, '2026-02-01T08:00:00.000Z', null],
    ]);
    // reported again: nothing changes, the first time stays
    const again = await resolution(base, scanner, [
      { domain: 'old.example.com', resolving: false, observed_at: '2026-02-02T08:00:00Z' },
    ]);
    expect(again.body.data).toEqual({ changed: 0, unchanged: 1, unknown: [] });
    const resumed = await resolution(base, scanner, [
      { domain: 'OLD.example.com.', resolving: true, observed_at: '2026-02-03T08:00:00Z' },
    ]);
    expect(resumed.body.data?.changed).toBe(1);
    old = await assets(base, scanner, '?domain=old.example.com');
    expect(old.map((a) => [a.resolving, a.stopped_resolving_at, a.resumed_resolving_at])).toEqual([
      [true, '2026-02-01T08:00:00.000Z', '2026-02-03T08:00:00.000Z'],
      [true, '2026-02-01T08:00:00.000Z', '2026-02-03T08:00:00.000Z'],
    ]);
  });

  it('refuses invalid pairs naming them, changing nothing; needs upload_report', async () => {
    const { id, base } = await freshScopeProject(t, admin);
    const scanner = await scannerKey(t, admin, id);
    const badIp = await report(base, scanner, [
      { domain: 'a.example.com', ip: '192.0.2.1' },
      { domain: 'b.example.com', ip: '999.0.0.1' },
    ]);
    expect([badIp.status, badIp.body.code]).toEqual([400, 'scope_asset_invalid']);
    expect(badIp.body.fields).toEqual([{ field: 'assets.1.ip', problems: ['not an IP address'] }]);
    const badName = await report(base, scanner, [{ domain: 'xn--zz.example', ip: '192.0.2.1' }]);
    expect([badName.status, badName.body.code]).toEqual([400, 'scope_asset_invalid']);
    const badTime = await report(base, scanner, [
      { domain: 'a.example.com', ip: '192.0.2.1', seen_at: 'yesterday' },
    ]);
    expect([badTime.status, badTime.body.code]).toEqual([400, 'validation_failed']);
    for (const nested of [[[{ domain: 'a.example.com', ip: '192.0.2.1' }]], [[]]]) {
      const res = await send(
        request(t.url).post(`${base}/assets`).send({ assets: nested }),
        scanner,
      );
      expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
      const domains = await send(
        request(t.url).post(`${base}/resolution-report`).send({ domains: nested }),
        scanner,
      );
      expect([domains.status, domains.body.code]).toEqual([400, 'validation_failed']);
    }
    const tooMany = await report(
      base,
      scanner,
      Array.from({ length: 5_001 }, (_, i) => ({ domain: `h${i}.example.com`, ip: '192.0.2.1' })),
    );
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 'validation_failed']);
    const rows = (await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM scope_assets WHERE project_id = $1`, [id])) as {
      n: number;
    }[];
    expect(rows[0].n).toBe(0);
    const viewer = await member(t, admin, id, 'viewer');
    const refused = await report(base, viewer, [{ domain: 'a.example.com', ip: '192.0.2.1' }]);
    expect([refused.status, refused.body.code]).toEqual([403, 'permission_denied']);
    expect(await assets(base, viewer)).toEqual([]);
  });
});
