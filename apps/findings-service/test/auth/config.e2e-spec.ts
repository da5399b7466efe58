import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';

describe('Config - /api/v1/auth/config (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('describes the login options without authentication', async () => {
    const res = await request(t.url).get('/api/v1/auth/config').expect(200);
    expect(res.body).toEqual({ data: { login_mode: 'local', local_enabled: true, providers: [] } });
  });
});
