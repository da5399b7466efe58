import { undeclaredRouteModule } from '@platform/testing';
import { listRouteAccess } from '../../src/app/access/route-inventory';
import { createFindingsApp } from '../../src/api/create-app';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import { ProbeModule } from '../support/probe.module';
import { startTestApp, TestApp } from '../support/test-app';

const offlineConfig = () =>
  loadFindingsConfig({
    DATABASE_URL: 'postgres://x@127.0.0.1:1/x',
    REDIS_URL: 'redis://127.0.0.1:1',
    LOG_LEVEL: 'error',
  });

describe('Access declarations - every route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('every registered route declares its access', () => {
    const routes = listRouteAccess(t.app);
    expect(routes.length).toBeGreaterThanOrEqual(19);
    const undeclared = routes
      .filter((r) => r.rule === undefined)
      .map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
    const admin = routes.filter((r) => r.path.includes('/admin/'));
    expect(admin.every((r) => r.rule?.kind === 'admin')).toBe(true);
  });

  it('refuses to build an app with an undeclared route', async () => {
    await expect(
      createFindingsApp(offlineConfig(), {
        preview: true,
        extraModules: [ProbeModule, undeclaredRouteModule()],
      }),
    ).rejects.toThrow(/routes without an access declaration: GET api\/v1\/undeclared/);
  });

  it('refuses to start with an undeclared route, naming it', async () => {
    await expect(startTestApp({}, { extraModules: [undeclaredRouteModule()] })).rejects.toThrow(
      /routes without an access declaration: GET api\/v1\/undeclared\/* \(UndeclaredController\.open\)/,
    );
  });
});
