import request from 'supertest';
import { bearer, type Auth } from '../support/catalog';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  addEntries,
  exportText,
  freshScopeProject,
  member,
  send,
  type ScopeEntry,
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

describe('Scope entries - add, list, delete (POST/GET/DELETE /api/v1/projects/{id}/scope...)', () => {
  it('adds every kind of entry in canonical form, shows IDN names both ways, lists them oldest first', async () => {
    const { base } = await freshScopeProject(t, admin);
    const added = await addEntries(t, asAdmin, base, [
      { value: '10.0.0.0/16', comment: 'office' },
      { value: '2001:DB8:0::/48' },
      { value: '192.0.2.10 - 192.0.2.20' },
      { value: '198.51.100.7/32' },
      { value: 'Example.COM.' },
      { value: '*.Пример.рф' },
      { value: '10.0.5.0/24', mode: 'exclude' },
    ]);
    expect(added.status).toBe(201);
    expect(
      (added.body.data ?? []).map((e) => [e.mode, e.kind, e.value, e.value_unicode, e.origin]),
    ).toEqual([
      ['include', 'cidr', '10.0.0.0/16', '10.0.0.0/16', 'manual'],
      ['include', 'cidr', '2001:db8::/48', '2001:db8::/48', 'manual'],
      ['include', 'range', '192.0.2.10-192.0.2.20', '192.0.2.10-192.0.2.20', 'manual'],
      ['include', 'ip', '198.51.100.7', '198.51.100.7', 'manual'],
      ['include', 'domain', 'example.com', 'example.com', 'manual'],
      ['include', 'wildcard', '*.xn--e1afmkfd.xn--p1ai', '*.пример.рф', 'manual'],
      ['exclude', 'cidr', '10.0.5.0/24', '10.0.5.0/24', 'manual'],
    ]);

    const page1 = await send<{ items: ScopeEntry[]; next_cursor: string | null }>(
      request(t.url).get(`${base}?limit=4`),
      asAdmin,
    );
    expect(page1.status).toBe(200);
    expect(page1.body.data?.items.map((e) => e.value)).toEqual([
      '10.0.0.0/16',
      '2001:db8::/48',
      '192.0.2.10-192.0.2.20',
      '198.51.100.7',
    ]);
    const page2 = await send<{ items: ScopeEntry[]; next_cursor: string | null }>(
      request(t.url).get(`${base}?limit=4&cursor=${page1.body.data?.next_cursor ?? ''}`),
      asAdmin,
    );
    expect(page2.body.data?.items.map((e) => e.value)).toEqual([
      'example.com',
      '*.xn--e1afmkfd.xn--p1ai',
      '10.0.5.0/24',
    ]);
    expect(page2.body.data?.next_cursor).toBeNull();
    const excludes = await send<{ items: ScopeEntry[] }>(
      request(t.url).get(`${base}?mode=exclude`),
      asAdmin,
    );
    expect(excludes.body.data?.items.map((e) => e.value)).toEqual(['10.0.5.0/24']);
    // a cursor made for another filter is refused
    const wrong = await send(
      request(t.url).get(`${base}?mode=exclude&cursor=${page1.body.data?.next_cursor ?? ''}`),
      asAdmin,
    );
    expect([wrong.status, wrong.body.code]).toEqual([400, 'scope_cursor_invalid']);
  });

  it('deletes an entry (204), then 404 scope_entry_not_found; the export follows', async () => {
    const { base } = await freshScopeProject(t, admin);
    const added = await addEntries(t, asAdmin, base, [
      { value: '10.1.0.0/24' },
      { value: 'a.example.com' },
    ]);
    const [first] = added.body.data ?? [];
    expect(await exportText(t, asAdmin, base)).toEqual(['10.1.0.0/24', 'a.example.com']);
    const deleted = await send(request(t.url).delete(`${base}/entries/${first.id}`), asAdmin);
    expect(deleted.status).toBe(204);
    expect(await exportText(t, asAdmin, base)).toEqual(['a.example.com']);
    const again = await send(request(t.url).delete(`${base}/entries/${first.id}`), asAdmin);
    expect([again.status, again.body.code]).toEqual([404, 'scope_entry_not_found']);
  });

  it('an entry of another project is not found through this one', async () => {
    const a = await freshScopeProject(t, admin);
    const b = await freshScopeProject(t, admin);
    const [entry] =
      (await addEntries(t, asAdmin, a.base, [{ value: '10.2.0.0/24' }])).body.data ?? [];
    const res = await send(request(t.url).delete(`${b.base}/entries/${entry.id}`), asAdmin);
    expect([res.status, res.body.code]).toEqual([404, 'scope_entry_not_found']);
    expect(await exportText(t, asAdmin, a.base)).toEqual(['10.2.0.0/24']);
  });

  it('members without manage_scope read but cannot change (403), non-members get 404', async () => {
    const { id, base } = await freshScopeProject(t, admin);
    await addEntries(t, asAdmin, base, [{ value: '10.3.0.0/24' }]);
    const analyst = await member(t, admin, id, 'analyst');
    expect((await send(request(t.url).get(base), analyst)).status).toBe(200);
    const refused = await addEntries(t, analyst, base, [{ value: '10.4.0.0/24' }]);
    // holding manage_scope nowhere: refused by the route's access check
    expect([refused.status, refused.body.code]).toEqual([403, 'permission_denied']);
    const projectAdmin = await member(t, admin, id, 'admin');
    expect((await addEntries(t, projectAdmin, base, [{ value: '10.4.0.0/24' }])).status).toBe(201);
    const other = await freshScopeProject(t, admin);
    const stranger = await member(t, admin, other.id, 'admin');
    const hidden = await send(request(t.url).get(base), stranger);
    expect([hidden.status, hidden.body.code]).toEqual([404, 'project_not_found']);
    expect(await exportText(t, asAdmin, base)).toEqual(['10.3.0.0/24', '10.4.0.0/24']);
  });
});

describe('Scope entries - hostile input gets a clear 4xx and changes nothing', () => {
  let project: { id: string; base: string };
  beforeAll(async () => {
    project = await freshScopeProject(t, admin);
    await addEntries(t, asAdmin, project.base, [
      { value: '10.10.0.0/16' },
      { value: '10.20.0.0-10.20.0.255' },
      { value: '*.corp.example' },
      { value: 'exact.example' },
    ]);
  });
  const refuse = async (
    entries: { value: string; mode?: 'include' | 'exclude' }[],
    code: string,
    status = 400,
    lang = 'en',
  ) => {
    const res = await send(
      request(t.url).post(`${project.base}/entries`).set('Accept-Language', lang).send({ entries }),
      asAdmin,
    );
    expect([res.status, res.body.code]).toEqual([status, code]);
    return res.body;
  };

  it('CIDR /0 and blocks or ranges wider than /8 (IPv4) or /32 (IPv6), naming the entry', async () => {
    const body = await refuse([{ value: '0.0.0.0/0' }], 'scope_entry_too_wide');
    expect(body.error).toBe(
      'scope entry "0.0.0.0/0" is too wide: at most a /8 (IPv4) or a /32 (IPv6), ranges alike',
    );
    expect(body.fields).toEqual([{ field: 'entries.0.value', problems: [expect.any(String)] }]);
    await refuse([{ value: '::/0' }], 'scope_entry_too_wide');
    await refuse([{ value: '2001:db8::/31' }], 'scope_entry_too_wide');
    await refuse([{ value: '1.0.0.0-3.0.0.0' }], 'scope_entry_too_wide');
    const ru = await refuse([{ value: '0.0.0.0/0' }], 'scope_entry_too_wide', 400, 'ru');
    expect(ru.error).toContain('слишком широкая');
  });

  it('10 000 entries in one request: 400 scope_batch_too_large (limit 1 000)', async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      value: `172.16.${Math.floor(i / 256)}.${i % 256}`,
    }));
    const body = await refuse(entries, 'scope_batch_too_large');
    expect(body.error).toBe('at most 1000 entries per request');
    // and 10 001 is refused at the JSON edge
    const edge = await send(
      request(t.url)
        .post(`${project.base}/entries`)
        .send({ entries: [...entries, { value: '172.20.0.1' }] }),
      asAdmin,
    );
    expect([edge.status, edge.body.code]).toEqual([400, 'body_too_wide']);
  });

  it('overlapping and duplicate entries: 409 naming the existing entry, nothing added', async () => {
    const overlap = await refuse([{ value: '10.10.5.0/24' }], 'scope_entry_overlaps', 409);
    expect(overlap.error).toMatch(
      /^scope entry "10\.10\.5\.0\/24" overlaps the entry "10\.10\.0\.0\/16" \([0-9a-f-]{36}\)/,
    );
    await refuse([{ value: '10.20.0.200-10.20.1.5' }], 'scope_entry_overlaps', 409);
    await refuse([{ value: '10.0.0.0/8' }], 'scope_entry_overlaps', 409);
    await refuse([{ value: 'a.b.corp.example' }], 'scope_entry_overlaps', 409);
    await refuse([{ value: '*.x.corp.example' }], 'scope_entry_overlaps', 409);
    const dup = await refuse([{ value: '10.10.0.0/16' }], 'scope_entry_duplicate', 409);
    expect(dup.error).toMatch(/already exists \(include, [0-9a-f-]{36}\)/);
    await refuse([{ value: 'EXACT.example.' }], 'scope_entry_duplicate', 409);
    await refuse([{ value: 'exact.example', mode: 'exclude' }], 'scope_entry_duplicate', 409);
    // within one request: the second overlaps the first; all or none
    const inRequest = await refuse(
      [{ value: '10.30.0.0/16' }, { value: '10.30.1.0/24' }],
      'scope_entry_overlaps',
      409,
    );
    expect(inRequest.error).toContain('"10.30.0.0/16" (entries.0.value)');
    expect(await exportText(t, asAdmin, project.base)).toEqual([
      '10.10.0.0/16',
      '10.20.0.0/24',
      '*.corp.example',
      'exact.example',
    ]);
  });

  it('an exclude may overlap includes (it carves out of them)', async () => {
    const other = await freshScopeProject(t, admin);
    await addEntries(t, asAdmin, other.base, [{ value: '10.40.0.0/16' }]);
    const res = await addEntries(t, asAdmin, other.base, [
      { value: '10.40.1.0/24', mode: 'exclude' },
      { value: '10.40.2.0/24', mode: 'exclude' },
    ]);
    expect(res.status).toBe(201);
    const overlap = await addEntries(t, asAdmin, other.base, [
      { value: '10.40.1.128/25', mode: 'exclude' },
    ]);
    expect([overlap.status, overlap.body.code]).toEqual([409, 'scope_entry_overlaps']);
  });

  it('IDN and punycode: invalid punycode, labels over 63, names over 253, wildcards in the middle', async () => {
    const puny = await refuse([{ value: 'xn--zz.example' }], 'scope_entry_punycode_invalid');
    expect(puny.error).toContain('"xn--zz.example"');
    await refuse([{ value: `${'a'.repeat(64)}.example` }], 'scope_entry_name_too_long');
    await refuse(
      [{ value: `${Array.from({ length: 5 }, () => 'b'.repeat(60)).join('.')}.example` }],
      'scope_entry_name_too_long',
    );
    await refuse([{ value: `${'я'.repeat(70)}.рф` }], 'scope_entry_name_too_long');
    const middle = await refuse([{ value: 'a.*.example.com' }], 'scope_entry_wildcard_invalid');
    expect(middle.error).toContain('"a.*.example.com"');
    await refuse([{ value: '*.com' }], 'scope_entry_wildcard_invalid');
  });

  it('garbage, host bits, mixed ranges, URLs: 400 naming the entry; the first problem decides, all are listed', async () => {
    const body = await refuse(
      [
        { value: 'good.example' },
        { value: '<script>alert(1)</script>' },
        { value: '10.0.0.1/8' },
        { value: '10.0.0.1-2001:db8::1' },
      ],
      'scope_entry_invalid',
    );
    expect(body.error).toBe(
      'scope entry "<script>alert(1)</script>" is not an IP address, CIDR block, address range or host name',
    );
    expect((body.fields as { field: string }[]).map((f) => f.field)).toEqual([
      'entries.1.value',
      'entries.2.value',
      'entries.3.value',
    ]);
    const bits = await refuse([{ value: '10.0.0.1/8' }], 'scope_entry_host_bits');
    expect(bits.error).toBe('scope entry "10.0.0.1/8" has host bits set; the block is 10.0.0.0/8');
    await refuse([{ value: 'https://example.com/' }], 'scope_entry_invalid');
    await refuse([{ value: '' }], 'scope_entry_invalid');
    const nul = await send(
      request(t.url)
        .post(`${project.base}/entries`)
        .send({ entries: [{ value: 'a\u0000.example' }] }),
      asAdmin,
    );
    expect([nul.status, nul.body.code]).toEqual([400, 'validation_failed']);
    for (const entries of [[[{ value: '10.9.0.0/24' }]], [[]], [null], ['10.9.0.0/24']]) {
      const nested = await send(
        request(t.url).post(`${project.base}/entries`).send({ entries }),
        asAdmin,
      );
      expect([JSON.stringify(entries), nested.status, nested.body.code]).toEqual([
        JSON.stringify(entries),
        400,
        'validation_failed',
      ]);
    }
    const mode = await send(
      request(t.url)
        .post(`${project.base}/entries`)
        .send({ entries: [{ value: '10.9.0.0/24', mode: 'maybe' }] }),
      asAdmin,
    );
    expect([mode.status, mode.body.code]).toEqual([400, 'validation_failed']);
    expect(await exportText(t, asAdmin, project.base)).toHaveLength(4);
  });
});
