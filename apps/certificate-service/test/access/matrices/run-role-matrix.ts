import { declaredRoutes } from '../../support/declared-routes';
import { createServiceAccount, createUser, loginAdmin } from '../../support/sessions';
import type { TestApp } from '../../support/test-app';
import { CALLERS, type Caller, type MatrixRoute, routeKey } from './callers';

/** A row of any role matrix. */
export interface RoleMatrixRow extends MatrixRoute {
  /** Concrete path the matrix requests. */
  path: string;
  /**
   * Callers that pass the guard. `public`: no session needed; `agent`: X-Agent-Secret only, so
   * every caller (bearer token or none) gets 401 `agent_unauthorized`.
   */
  allowed: Caller[] | 'public' | 'agent';
}

export interface RoleMatrixOptions {
  /** Starts the app the table runs against (`startTestApp`, `startEnrollApp`, ...). */
  startApp: () => Promise<TestApp>;
  /** Which row field the test name shows after the method: `'%s %s as %s'`. */
  name: 'path' | 'template';
  /** Body for `createServiceAccount` (its `allowed_purposes`, ...); none by default. */
  serviceAccount?: Record<string, unknown>;
  /** Allowed callers must also get a status below 500. */
  allowedBelow500?: boolean;
}

/** What the spec's own tests read once `beforeAll` has run. */
export interface RoleMatrix {
  app(): TestApp;
  token(caller: Caller): string | undefined;
}

/**
 * Registers, in the current `describe`, the app and caller tokens (`beforeAll`/`afterAll`) and
 * one test per row and caller. Write rows get an invalid body, so a caller that passes the
 * guard changes nothing. Allowed callers get neither 401 nor 403; refused callers get 401 when
 * anonymous, else 403.
 */
export function runRoleMatrix(
  rows: readonly RoleMatrixRow[],
  options: RoleMatrixOptions,
): RoleMatrix {
  let t: TestApp;
  const tokens = new Map<Caller, string>();
  beforeAll(async () => {
    t = await options.startApp();
    const admin = await loginAdmin(t);
    tokens.set('admin', admin.accessToken);
    tokens.set('viewer', (await createUser(t, admin, ['cert-viewer'])).accessToken);
    tokens.set('approver', (await createUser(t, admin, ['cert-approver'])).accessToken);
    tokens.set('no-role', (await createUser(t, admin, [])).accessToken);
    tokens.set(
      'service-account',
      (await createServiceAccount(t, admin, options.serviceAccount)).token,
    );
  });
  afterAll(() => t.close());

  const cases = rows.flatMap((row) =>
    CALLERS.map((caller) => [row.method.toUpperCase(), row[options.name], caller, row] as const),
  );

  it.each(cases)('%s %s as %s', async (_m, _p, caller, row) => {
    let req = t.http[row.method](row.path);
    const token = tokens.get(caller);
    if (token) req = req.set('authorization', `Bearer ${token}`);
    if (row.method !== 'get') req = req.send({ invalid_field: true });
    const res = await req;
    if (row.allowed === 'agent') {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('agent_unauthorized');
    } else if (row.allowed === 'public' || row.allowed.includes(caller)) {
      expect([401, 403]).not.toContain(res.status);
      if (options.allowedBelow500) expect(res.status).toBeLessThan(500);
    } else {
      expect(res.status).toBe(caller === 'anonymous' ? 401 : 403);
    }
  });

  return { app: () => t, token: (caller) => tokens.get(caller) };
}

/** Registers 'has every row as a declared route' for `rows`. */
export function itDeclaresEveryRow(matrix: RoleMatrix, rows: readonly MatrixRoute[]): void {
  it('has every row as a declared route', () => {
    const declared = declaredRoutes(matrix.app()).map((r) => r.route);
    expect(declared).toEqual(expect.arrayContaining(rows.map((r) => routeKey(r))));
  });
}
