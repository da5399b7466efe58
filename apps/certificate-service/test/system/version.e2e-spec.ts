import { startTestApp, type TestApp } from '../support/test-app';

describe('Version - /api/v1/version (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers version X.Y.BUILD+COMMIT, commit and built_at without authentication', async () => {
    const res = await t.http.get('/api/v1/version').expect(200);
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d{14}\+[0-9a-z]+$/);
    expect(res.body.version.endsWith(`+${res.body.commit}`)).toBe(true);
    expect(new Date(res.body.built_at).toISOString()).toBeTruthy();
  });
});
