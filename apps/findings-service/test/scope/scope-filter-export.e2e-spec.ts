import request from 'supertest';
import { bearer, type Auth } from '../support/catalog';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  addEntries,
  exportText,
  filter,
  freshScopeProject,
  scannerKey,
  send,
  type FilterResult,
} from './scope-support';

let t: TestApp;
let admin: Login;
let asAdmin: Auth;
let project: { id: string; base: string };

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  asAdmin = bearer(admin);
  project = await freshScopeProject(t, admin);
  const added = await addEntries(t, asAdmin, project.base, [
    { value: '10.0.0.0/16' },
    { value: '10.0.7.0/24', mode: 'exclude' },
    { value: '10.0.9.9', mode: 'exclude' },
    { value: '192.0.2.100-192.0.2.150' },
    { value: '2001:db8::/48' },
    { value: '2001:db8:0:ff00::/56', mode: 'exclude' },
    { value: '2001:db8:1::10-2001:db8:1::1f' },
    { value: 'example.com' },
    { value: '*.corp.example' },
    { value: '*.lab.corp.example', mode: 'exclude' },
    { value: 'vpn.corp.example', mode: 'exclude' },
    { value: '*.пример.рф' },
  ]);
  if (added.status !== 201) throw new Error(added.text);
});
afterAll(() => t.close());

describe('Scope filter - POST /api/v1/projects/{id}/scope/filter', () => {
  it('IPv4 blocks, ranges and excludes', async () => {
    const r = await filter(t, asAdmin, project.base, [
      '10.0.0.1',
      '10.0.255.255',
      '10.0.7.20',
      '10.0.9.9',
      '10.0.9.10',
      '10.1.0.0',
      '192.0.2.99',
      '192.0.2.100',
      '192.0.2.150',
      '192.0.2.151',
      '10.0.0.1:8443',
      '::ffff:10.0.0.2',
    ]);
    expect(r.inside).toEqual([
      '10.0.0.1',
      '10.0.255.255',
      '10.0.9.10',
      '192.0.2.100',
      '192.0.2.150',
      '10.0.0.1:8443',
      '::ffff:10.0.0.2',
    ]);
    expect(r.outside).toEqual(['10.0.7.20', '10.0.9.9', '10.1.0.0', '192.0.2.99', '192.0.2.151']);
  });

  it('IPv6 blocks, ranges and excludes', async () => {
    const r = await filter(t, asAdmin, project.base, [
      '2001:db8::1',
      '2001:DB8:0:FEFF::1',
      '2001:db8:0:ffff::1',
      '2001:db8:0:ff00::1',
      '2001:db8:0:ffab::',
      '2001:db8:1::10',
      '2001:db8:1::1f',
      '2001:db8:1::20',
      '[2001:db8::2]:443',
      '2001:db9::1',
    ]);
    expect(r.inside).toEqual([
      '2001:db8::1',
      '2001:DB8:0:FEFF::1',
      '2001:db8:1::10',
      '2001:db8:1::1f',
      '[2001:db8::2]:443',
    ]);
    expect(r.outside).toEqual([
      '2001:db8:0:ffff::1',
      '2001:db8:0:ff00::1',
      '2001:db8:0:ffab::',
      '2001:db8:1::20',
      '2001:db9::1',
    ]);
  });

  it('names: exact, wildcards (subdomains only, any depth), excludes, IDN both ways, URLs', async () => {
    const r = await filter(t, asAdmin, project.base, [
      'example.com',
      'EXAMPLE.com.',
      'www.example.com',
      'corp.example',
      'a.corp.example',
      'a.b.c.corp.example',
      'x.lab.corp.example',
      'lab.corp.example',
      'vpn.corp.example',
      'сайт.пример.рф',
      'xn--80aswg.xn--e1afmkfd.xn--p1ai',
      'пример.рф',
      'https://a.corp.example:8443/login?x=1',
      'http://[2001:db8::5]/',
      'https://сайт.пример.рф/путь',
    ]);
    expect(r.inside).toEqual([
      'example.com',
      'EXAMPLE.com.',
      'a.corp.example',
      'a.b.c.corp.example',
      'lab.corp.example',
      'сайт.пример.рф',
      'xn--80aswg.xn--e1afmkfd.xn--p1ai',
      'https://a.corp.example:8443/login?x=1',
      'http://[2001:db8::5]/',
      'https://сайт.пример.рф/путь',
    ]);
    expect(r.outside).toEqual([
      'www.example.com',
      'corp.example',
      'x.lab.corp.example',
      'vpn.corp.example',
      'пример.рф',
    ]);
  });

  it('invalid targets come back with a reason', async () => {
    const r = await filter(t, asAdmin, project.base, [
      '10.0.0.256',
      'bad..name',
      'xn--zz.example',
      `${'a'.repeat(64)}.com`,
      '*.corp.example',
      '10.0.0.0/24',
      'http://',
      '',
    ]);
    expect(r.invalid.map((i) => i.reason)).toEqual([
      'invalid_ip',
      'invalid_host_name',
      'invalid_punycode',
      'label_too_long',
      'wildcard_not_a_target',
      'block_not_a_target',
      'invalid_url',
      'empty',
    ]);
    expect(r.counts).toEqual({ inside: 0, outside: 0, invalid: 8 });
  });

  it('100 000 targets as text/plain, one per line (blank and # lines skipped)', async () => {
    const lines = ['# scanner batch', ''];
    let excluded = 0;
    for (let i = 0; i < 100_000; i++) {
      const [c, d] = [(i >> 8) & 255, i & 255];
      lines.push(`10.0.${c}.${d}`);
      if (c === 7 || (c === 9 && d === 9)) excluded += 1;
    }
    const res = await send<FilterResult>(
      request(t.url)
        .post(`${project.base}/filter`)
        .set('Content-Type', 'text/plain; charset=utf-8')
        .send(lines.join('\r\n')),
      asAdmin,
    );
    expect(res.status).toBe(200);
    // 10.0.7.0/24 and 10.0.9.9 are excluded
    expect(excluded).toBe(514);
    expect(res.body.data?.counts).toEqual({
      inside: 100_000 - excluded,
      outside: excluded,
      invalid: 0,
    });
  });

  it('limits: 100 001 lines, more than 10 000 JSON targets, non-UTF-8 text; other media types 415', async () => {
    const many = Array.from({ length: 100_001 }, () => '10.0.0.1').join('\n');
    const tooMany = await send(
      request(t.url).post(`${project.base}/filter`).set('Content-Type', 'text/plain').send(many),
      asAdmin,
    );
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 'scope_filter_too_many']);
    const json = await send(
      request(t.url)
        .post(`${project.base}/filter`)
        .send({ targets: Array.from({ length: 10_001 }, () => '10.0.0.1') }),
      asAdmin,
    );
    expect([json.status, json.body.code]).toEqual([400, 'body_too_wide']);
    const latin1 = await send(
      request(t.url)
        .post(`${project.base}/filter`)
        .set('Content-Type', 'text/plain')
        .send(Buffer.from([0x31, 0x30, 0xff, 0x0a])),
      asAdmin,
    );
    expect([latin1.status, latin1.body.code]).toEqual([400, 'scope_filter_body_invalid']);
    const nul = await send(
      request(t.url)
        .post(`${project.base}/filter`)
        .set('Content-Type', 'text/plain')
        .send('a\u0000b'),
      asAdmin,
    );
    expect([nul.status, nul.body.code]).toEqual([400, 'validation_failed']);
    const xml = await send(
      request(t.url)
        .post(`${project.base}/filter`)
        .set('Content-Type', 'application/xml')
        .send('<targets/>'),
      asAdmin,
    );
    expect([xml.status, xml.body.code]).toEqual([415, 'unsupported_media_type']);
    // text/plain is refused on every other route
    const elsewhere = await send(
      request(t.url)
        .post(`${project.base}/entries`)
        .set('Content-Type', 'text/plain')
        .send('10.0.0.1'),
      asAdmin,
    );
    expect([elsewhere.status, elsewhere.body.code]).toEqual([415, 'unsupported_media_type']);
    const huge = await send(
      request(t.url)
        .post(`${project.base}/filter`)
        .set('Content-Type', 'text/plain')
        .send('a'.repeat(9 * 1024 * 1024)),
      asAdmin,
    );
    expect([huge.status, huge.body.code]).toEqual([413, 'payload_too_large']);
  });
});

describe('Scope export - GET /api/v1/projects/{id}/scope/export', () => {
  const expected = [
    '10.0.0.0/22',
    '10.0.4.0/23',
    '10.0.6.0/24',
    '10.0.8.0/24',
    '10.0.9.0/29',
    '10.0.9.8',
    '10.0.9.10/31',
    '10.0.9.12/30',
    '10.0.9.16/28',
    '10.0.9.32/27',
    '10.0.9.64/26',
    '10.0.9.128/25',
    '10.0.10.0/23',
    '10.0.12.0/22',
    '10.0.16.0/20',
    '10.0.32.0/19',
    '10.0.64.0/18',
    '10.0.128.0/17',
    '192.0.2.100/30',
    '192.0.2.104/29',
    '192.0.2.112/28',
    '192.0.2.128/28',
    '192.0.2.144/30',
    '192.0.2.148/31',
    '192.0.2.150',
    '2001:db8::/49',
    '2001:db8:0:8000::/50',
    '2001:db8:0:c000::/51',
    '2001:db8:0:e000::/52',
    '2001:db8:0:f000::/53',
    '2001:db8:0:f800::/54',
    '2001:db8:0:fc00::/55',
    '2001:db8:0:fe00::/56',
    '2001:db8:1::10/124',
    '*.corp.example',
    '*.xn--e1afmkfd.xn--p1ai',
    'example.com',
  ];

  it('text: one target per line with the address excludes taken out; excludes list for names', async () => {
    const key = await scannerKey(t, admin, project.id, ['read_findings']);
    const res = await send(request(t.url).get(`${project.base}/export?format=text`), key);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text.split('\n')).toEqual([...expected, '']);
    const excludes = await send(
      request(t.url).get(`${project.base}/export?format=text&list=excludes`),
      key,
    );
    expect(excludes.text).toBe('*.lab.corp.example\nvpn.corp.example\n');
  });

  it('Accept: text/plain gives text; otherwise JSON with both lists and the entries in both forms', async () => {
    const text = await send(
      request(t.url).get(`${project.base}/export`).set('Accept', 'text/plain'),
      asAdmin,
    );
    expect(text.text.split('\n')[0]).toBe('10.0.0.0/22');
    const json = await send<{
      targets: string[];
      exclude_targets: string[];
      include: { value: string; value_unicode: string }[];
      exclude: unknown[];
    }>(
      request(t.url)
        .get(`${project.base}/export`)
        .set('Accept', 'application/json, text/plain;q=0.5'),
      asAdmin,
    );
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body.data?.targets).toEqual(expected);
    expect(json.body.data?.exclude_targets).toEqual(['*.lab.corp.example', 'vpn.corp.example']);
    expect(json.body.data?.include).toContainEqual({
      kind: 'wildcard',
      value: '*.xn--e1afmkfd.xn--p1ai',
      value_unicode: '*.пример.рф',
    });
    expect(json.body.data?.exclude).toHaveLength(5);
    const bad = await send(request(t.url).get(`${project.base}/export?format=xml`), asAdmin);
    expect([bad.status, bad.body.code]).toEqual([400, 'validation_failed']);
  });

  it('an empty perimeter exports nothing', async () => {
    const empty = await freshScopeProject(t, admin);
    expect(await exportText(t, asAdmin, empty.base)).toEqual([]);
  });
});
