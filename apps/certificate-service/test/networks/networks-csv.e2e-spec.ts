import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/** RFC 4180 reader: quoted cells with doubled quotes, CRLF rows (what csv.ts writes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  return rows;
}

/** A JSON value as the CSV writes it (formula characters neutralised with a leading quote). */
function asCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = Array.isArray(value) ? value.join(' ') : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

describe('Networks CSV - GET /api/v1/admin/networks.csv', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
    const create = (body: Record<string, unknown>) =>
      t.http
        .post('/api/v1/admin/networks')
        .set(...bearer(admin.accessToken))
        .send(body)
        .expect(201);
    await create({
      kind: 'wifi',
      name: '=HYPERLINK("http://evil.example","x")',
      ssid: '@SUM(1,2)',
      radius_server_names: ['r1.corp.example', 'r2.corp.example'],
    });
    await create({ kind: 'wifi', name: 'Guests, "quoted"', ssid: '+Guests', hidden: true });
    const wired = await create({ kind: 'wired', name: '-wired' });
    await t.http
      .post(`/api/v1/admin/networks/${(wired.body as { id: string }).id}/disable`)
      .set(...bearer(admin.accessToken))
      .expect(200);
  });
  afterAll(() => t.close());

  it('holds the same rows as the JSON list, with a header and neutralised formulas', async () => {
    const viewer = await createUser(t, admin, ['cert-viewer']);
    const list = (
      await t.http
        .get('/api/v1/admin/networks')
        .set(...bearer(viewer.accessToken))
        .expect(200)
    ).body as { items: Record<string, unknown>[] };
    const res = await t.http
      .get('/api/v1/admin/networks.csv')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="networks.csv"');
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual([
      'id',
      'kind',
      'name',
      'ssid',
      'hidden',
      'eap_method',
      'purpose',
      'radius_server_names',
      'agent_profile_disabled',
      'macos_agent_profile_disabled',
      'enabled',
      'disabled_at',
      'created_by',
      'updated_by',
      'created_at',
      'updated_at',
    ]);
    expect(list.items).toHaveLength(3);
    expect(rows).toEqual(list.items.map((item) => header.map((column) => asCell(item[column]))));
    for (const row of rows) {
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@]/);
    }
    expect(rows.map((r) => r[header.indexOf('name')])).toContain(
      `'=HYPERLINK("http://evil.example","x")`,
    );
  });
});
