import { undeclaredRouteModule } from '@platform/testing';
import { declaredRoutes } from '../support/declared-routes';
import { ProbeModule } from '../support/probe.module';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Access declarations - every route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('finds the routes of the app', () => {
    const routes = declaredRoutes(t).map((r) => r.route);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /health',
        'POST /api/v1/auth/local/login',
        'DELETE /api/v1/service-accounts/:id',
      ]),
    );
    expect(routes.length).toBeGreaterThanOrEqual(23);
  });

  it('declares @Public, @Roles, @SignedIn or @AgentAuth on every route', () => {
    const undeclared = declaredRoutes(t)
      .filter((r) => r.policy === undefined)
      .map((r) => r.route);
    expect(undeclared).toEqual([]);
  });

  it('refuses to start with an undeclared route, naming it', async () => {
    await expect(
      startTestApp({ extraImports: [ProbeModule, undeclaredRouteModule()] }),
    ).rejects.toThrow(
      /routes without an access declaration: GET api\/v1\/undeclared\/* \(UndeclaredController\.open\)/,
    );
  });
});
