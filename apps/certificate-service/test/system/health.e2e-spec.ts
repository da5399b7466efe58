import { startTestApp, type TestApp } from '../support/test-app';

describe('Health - /health (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers {"status":"ok"} and writes no log line', async () => {
    t.logs.clear();
    const res = await t.http.get('/health').set('x-request-id', 'health-probe-1').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toBe('health-probe-1');
    expect(
      t.logs.lines().filter((l) => l.path === '/health' || l.request_id === 'health-probe-1'),
    ).toEqual([]);
  });
});
