import request from 'supertest';
import { bearer, type Auth } from '../support/catalog';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  addEntries,
  exportText,
  freshScopeProject,
  member,
  scannerKey,
  send,
  type Proposal,
} from './scope-support';

let t: TestApp;
let admin: Login;
let asAdmin: Auth;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  asAdmin = bearer(admin);
});
afterAll(() => t.close());

const propose = (base: string, auth: Auth, value: string, comment?: string) =>
  send<Proposal>(request(t.url).post(`${base}/proposals`).send({ value, comment }), auth);
const decide = (base: string, auth: Auth, id: string, decision: 'confirm' | 'reject') =>
  send<Proposal>(request(t.url).post(`${base}/proposals/${id}/${decision}`).send({}), auth);
const pending = async (base: string, auth: Auth, status = 'pending') =>
  (
    await send<{ items: Proposal[] }>(
      request(t.url).get(`${base}/proposals?status=${status}`),
      auth,
    )
  ).body.data?.items ?? [];

describe('Scope proposals - POST/GET /api/v1/projects/{id}/scope/proposals, confirm, reject', () => {
  it('a proposal never changes the export until an administrator confirms it', async () => {
    const { id, base } = await freshScopeProject(t, admin);
    await addEntries(t, asAdmin, base, [{ value: '10.0.0.0/24' }]);
    const scanner = await scannerKey(t, admin, id);
    expect(await exportText(t, scanner, base)).toEqual(['10.0.0.0/24']);

    const proposed = await propose(base, scanner, 'App.Пример.рф', 'seen in TLS SAN of 10.0.0.5');
    expect(proposed.status).toBe(201);
    expect(proposed.body.data).toMatchObject({
      value: 'app.xn--e1afmkfd.xn--p1ai',
      value_unicode: 'app.пример.рф',
      status: 'pending',
      times_proposed: 1,
      entry_id: null,
    });
    const second = await propose(base, scanner, '192.0.2.0/28');
    expect(second.status).toBe(201);
    expect(await exportText(t, scanner, base)).toEqual(['10.0.0.0/24']);
    expect((await pending(base, scanner)).map((p) => p.value)).toEqual([
      'app.xn--e1afmkfd.xn--p1ai',
      '192.0.2.0/28',
    ]);
    const filtered = await send<{ inside: string[] }>(
      request(t.url)
        .post(`${base}/filter`)
        .send({ targets: ['app.пример.рф', '192.0.2.1'] }),
      scanner,
    );
    expect(filtered.body.data?.inside).toEqual([]);

    const confirmed = await decide(base, asAdmin, proposed.body.data?.id ?? '', 'confirm');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({
      status: 'confirmed',
      entry_id: expect.any(String),
    });
    expect(await exportText(t, scanner, base)).toEqual([
      '10.0.0.0/24',
      'app.xn--e1afmkfd.xn--p1ai',
    ]);
    const entries = await send<{ items: { id: string; origin: string; origin_ref: string }[] }>(
      request(t.url).get(`${base}?kind=domain`),
      scanner,
    );
    expect(entries.body.data?.items).toEqual([
      expect.objectContaining({
        id: confirmed.body.data?.entry_id,
        origin: 'proposal',
        origin_ref: proposed.body.data?.id,
      }),
    ]);

    const rejected = await decide(base, asAdmin, second.body.data?.id ?? '', 'reject');
    expect(rejected.body.data).toMatchObject({ status: 'rejected', entry_id: null });
    expect(await exportText(t, scanner, base)).toEqual([
      '10.0.0.0/24',
      'app.xn--e1afmkfd.xn--p1ai',
    ]);
    expect(await pending(base, scanner)).toEqual([]);
    expect((await pending(base, scanner, 'all')).map((p) => p.status)).toEqual([
      'confirmed',
      'rejected',
    ]);
  });

  it('a rejected object proposed again stays rejected (200, counted, not reopened)', async () => {
    const { id, base } = await freshScopeProject(t, admin);
    const scanner = await scannerKey(t, admin, id);
    const first = await propose(base, scanner, 'db.example.org');
    await decide(base, asAdmin, first.body.data?.id ?? '', 'reject');
    const again = await propose(base, scanner, 'DB.example.org.');
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      id: first.body.data?.id,
      status: 'rejected',
      times_proposed: 2,
    });
    expect(await pending(base, scanner)).toEqual([]);
    expect(await exportText(t, scanner, base)).toEqual([]);
    // a pending one proposed again counts
    const p = await propose(base, scanner, '198.51.100.0/30');
    const p2 = await propose(base, scanner, '198.51.100.0/30');
    expect([p2.status, p2.body.data?.id, p2.body.data?.times_proposed]).toEqual([
      200,
      p.body.data?.id,
      2,
    ]);
  });

  it('a decided proposal cannot be decided again (422); a confirmation that would overlap is 409 and stays pending', async () => {
    const { id, base } = await freshScopeProject(t, admin);
    const scanner = await scannerKey(t, admin, id);
    const a = await propose(base, scanner, '10.5.0.0/24');
    await decide(base, asAdmin, a.body.data?.id ?? '', 'confirm');
    const twice = await decide(base, asAdmin, a.body.data?.id ?? '', 'reject');
    expect([twice.status, twice.body.code]).toEqual([422, 'scope_proposal_decided']);
    const b = await propose(base, scanner, '10.5.0.128/25');
    const overlapping = await decide(base, asAdmin, b.body.data?.id ?? '', 'confirm');
    expect([overlapping.status, overlapping.body.code]).toEqual([409, 'scope_entry_overlaps']);
    expect((await pending(base, scanner)).map((p) => p.value)).toEqual(['10.5.0.128/25']);
    const missing = await decide(base, asAdmin, '00000000-0000-4000-8000-000000000000', 'confirm');
    expect([missing.status, missing.body.code]).toEqual([404, 'scope_proposal_not_found']);
  });

  it('a confirmed value whose entry was deleted is pending again when proposed again', async () => {
    const { id, base } = await freshScopeProject(t, admin);
    const scanner = await scannerKey(t, admin, id);
    const p = await propose(base, scanner, 'shop.example.net');
    const confirmed = await decide(base, asAdmin, p.body.data?.id ?? '', 'confirm');
    await send(
      request(t.url).delete(`${base}/entries/${confirmed.body.data?.entry_id ?? ''}`),
      asAdmin,
    );
    const again = await propose(base, scanner, 'shop.example.net');
    expect(again.body.data).toMatchObject({ status: 'pending', entry_id: null, times_proposed: 2 });
  });

  it('who may propose and decide: upload_report proposes, manage_scope decides; invalid values are 400', async () => {
    const { id, base } = await freshScopeProject(t, admin);
    const viewer = await member(t, admin, id, 'viewer');
    const refused = await propose(base, viewer, 'x.example.com');
    expect([refused.status, refused.body.code]).toEqual([403, 'permission_denied']);
    const analyst = await member(t, admin, id, 'analyst');
    const p = await propose(base, analyst, 'x.example.com');
    expect(p.status).toBe(201);
    const notAllowed = await decide(base, analyst, p.body.data?.id ?? '', 'confirm');
    expect([notAllowed.status, notAllowed.body.code]).toEqual([403, 'permission_denied']);
    const manager = await scannerKey(t, admin, id, ['manage_scope']);
    expect((await decide(base, manager, p.body.data?.id ?? '', 'confirm')).status).toBe(200);
    const wide = await propose(base, analyst, '0.0.0.0/0');
    expect([wide.status, wide.body.code]).toEqual([400, 'scope_entry_too_wide']);
    const garbage = await propose(base, analyst, 'a.*.example');
    expect([garbage.status, garbage.body.code]).toEqual([400, 'scope_entry_wildcard_invalid']);
    expect((await pending(base, analyst, 'all')).map((x) => x.value)).toEqual(['x.example.com']);
  });
});
