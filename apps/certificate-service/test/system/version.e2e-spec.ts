import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Version - /api/v1/version (GET)', () => {
  let t: TestApp;
  let tagged: TestApp;
  beforeAll(async () => {
    [t, tagged] = await Promise.all([
      startTestApp(),
      startTestApp({ env: { CERTSVC_IMAGE_TAG: '1.4.20261130+abc1234' } }),
    ]);
  });
  afterAll(() => Promise.all([t.close(), tagged.close()]));

  it('answers version X.Y.BUILD+COMMIT, commit and built_at without authentication', async () => {
    const res = await t.http.get('/api/v1/version').expect(200);
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d{14}\+[0-9a-z]+$/);
    expect(res.body.version.endsWith(`+${res.body.commit}`)).toBe(true);
    expect(new Date(res.body.built_at).toISOString()).toBeTruthy();
    expect(res.body.image_tag).toBeNull();
  });

  it('reports the image release tag CERTSVC_IMAGE_TAG, which the web UI compares with its own', async () => {
    const res = await tagged.http.get('/api/v1/version').expect(200);
    expect(res.body.image_tag).toBe('1.4.20261130+abc1234');
  });

  it('refuses a tag no registry accepts at start, naming the variable', () => {
    expect(() =>
      loadCertsvcConfig({
        CERTSVC_DATABASE_URL: 'postgres://x@127.0.0.1/x',
        CERTSVC_DEV_MODE: 'true',
        CERTSVC_IMAGE_TAG: 'bad tag/with space',
      }),
    ).toThrow(/CERTSVC_IMAGE_TAG/);
  });
});
