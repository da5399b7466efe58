import { AuditService } from '../../src/modules/audit/audit.service';
import { DevicesService } from '../../src/modules/devices/devices.service';
import { RequestsService } from '../../src/modules/requests/requests.service';
import { UsersService } from '../../src/modules/users/users.service';
import { enrollDevice, startEnrollApp } from '../fixtures/enroll';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

const INVALID_QUERIES: Record<string, string[]> = {
  audit: ['limit=abc', 'page=0', 'limit=501', 'since=yesterday', 'action=nope', 'unknown=1'],
  requests: ['status=zz', 'purpose=zz', 'until=not-a-date', 'page=-1', 'serial=' + 'x'.repeat(129)],
  devices: ['page=-1', 'blocked=maybe', 'purpose=zz', 'limit=1.5', 'owner=' + 'x'.repeat(321)],
};

describe('CSV exports - /api/v1/{audit,requests,devices,users}.csv (GET) answer like their JSON twins', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
    await enrollDevice(t);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const get = (path: string) => t.http.get(path).set(...bearer(admin.accessToken));

  describe.each(Object.entries(INVALID_QUERIES))('%s.csv', (list, queries) => {
    const cases = queries.map((q) => [q.length > 40 ? `${q.slice(0, 12)}...(${q.length})` : q, q]);
    it.each(cases)('?%s gives the same 400 as the JSON list', async (_label, query) => {
      const json = await get(`/api/v1/${list}?${query}`);
      const csv = await get(`/api/v1/${list}.csv?${query}`);
      expect(json.status).toBe(400);
      expect(csv.status).toBe(400);
      expect(csv.headers['content-type']).toMatch(/^application\/json/);
      expect(csv.headers['content-disposition']).toBeUndefined();
      expect(csv.body).toEqual(json.body);
      expect(csv.body).toMatchObject({
        code: 'invalid_request',
        message: expect.any(String),
        details: [expect.objectContaining({ field: expect.any(String) })],
      });
    });

    it('still exports a valid query as a CSV attachment', async () => {
      const res = await get(`/api/v1/${list}.csv?limit=5`).expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${list}.csv"`);
      expect(res.text).toMatch(/^[a-z_]+(,[a-z_]+)+\r\n/);
    });
  });

  it.each([
    ['audit', AuditService],
    ['requests', RequestsService],
    ['devices', DevicesService],
  ] as const)(
    'a failure while reading %s answers the error envelope, never a CSV attachment',
    async (list, service) => {
      jest
        .spyOn(t.app.get<{ export: () => Promise<unknown> }>(service), 'export')
        .mockRejectedValue(new Error('connection terminated'));
      const res = await get(`/api/v1/${list}.csv`);
      expect(res.status).toBe(500);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.body).toEqual({ code: 'internal_error', message: 'internal error' });
    },
  );

  it('users.csv: a failure while reading answers the error envelope, never a CSV attachment', async () => {
    jest
      .spyOn(t.app.get(UsersService), 'list')
      .mockRejectedValue(new Error('connection terminated'));
    const res = await get('/api/v1/users.csv');
    expect(res.status).toBe(500);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.body).toEqual({ code: 'internal_error', message: 'internal error' });
  });
});
