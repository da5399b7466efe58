import { declaredRoutes } from '../support/declared-routes';
import { startTestApp, type TestApp } from '../support/test-app';
import { type MatrixRoute, routeKey } from './matrices/callers';
import { DEVICES_ENROLLMENT_ROWS } from './matrices/devices-enrollment.matrix';
import { FOUNDATION_ROWS } from './matrices/foundation.matrix';
import { ISSUANCE_ROWS } from './matrices/issuance.matrix';
import { SSH_KEYHOLDER_ROWS } from './matrices/ssh-keyholder.matrix';
import { SSH_ROWS } from './matrices/ssh.matrix';
import { K8S_ROWS } from './matrices/k8s.matrix';
import { PKI_SETTINGS_ROWS } from './matrices/pki-settings.matrix';
import { WEBHOOKS_ROWS } from './matrices/webhooks.matrix';
import { ISSUER_PROFILES_ROWS } from './matrices/issuer-profiles.matrix';
import { NETWORKS_ROWS } from './matrices/networks.matrix';
import { TOKEN_RECOVER_ROWS } from './matrices/token-recover.matrix';
import { APP_ATTEST_ROWS } from './matrices/app-attest.matrix';
import { LOG_SNAPSHOTS_ROWS } from './matrices/log-snapshots.matrix';
import { ISSUANCE_DIRECTIVES_ROWS } from './matrices/issuance-directives.matrix';
import { TPM_ROOTS_ROWS } from './matrices/tpm-roots.matrix';
import { IDENTITY_SID_ROWS } from './matrices/identity-sid.matrix';

/** The three role matrices, by the spec file that runs each. */
const TABLES: Record<string, readonly MatrixRoute[]> = {
  'role-matrix.e2e-spec.ts': FOUNDATION_ROWS,
  'devices-enrollment-role-matrix.e2e-spec.ts': DEVICES_ENROLLMENT_ROWS,
  'issuance-role-matrix.e2e-spec.ts': ISSUANCE_ROWS,
  'ssh-keyholder-role-matrix.e2e-spec.ts': SSH_KEYHOLDER_ROWS,
  'ssh-role-matrix.e2e-spec.ts': SSH_ROWS,
  'k8s-role-matrix.e2e-spec.ts': K8S_ROWS,
  'pki-settings-role-matrix.e2e-spec.ts': PKI_SETTINGS_ROWS,
  'webhooks-role-matrix.e2e-spec.ts': WEBHOOKS_ROWS,
  'issuer-profiles-role-matrix.e2e-spec.ts': ISSUER_PROFILES_ROWS,
  'networks-role-matrix.e2e-spec.ts': NETWORKS_ROWS,
  'token-recover-role-matrix.e2e-spec.ts': TOKEN_RECOVER_ROWS,
  'app-attest-role-matrix.e2e-spec.ts': APP_ATTEST_ROWS,
  'log-snapshots-role-matrix.e2e-spec.ts': LOG_SNAPSHOTS_ROWS,
  'issuance-directives-role-matrix.e2e-spec.ts': ISSUANCE_DIRECTIVES_ROWS,
  'tpm-roots-role-matrix.e2e-spec.ts': TPM_ROOTS_ROWS,
  'identity-sid-role-matrix.e2e-spec.ts': IDENTITY_SID_ROWS,
};

/**
 * Declared routes that no role matrix holds, route -> why it sits outside the role model.
 * Empty on purpose: every controller route is in a table, including the public ones
 * (`/health`, `/metrics`, `/api/v1/version`, `/api/v1/features`, `/api/v1/issuer`, auth and
 * enroll routes as `public`) and the agent routes (`/api/v1/requests/:id/*` as `agent`).
 * Prefer adding a route to a table; an entry here needs a reason and a test that covers the
 * route's access elsewhere.
 *
 * Not listed because `declaredRoutes` never reports it: `GET /swagger/` (and `/swagger/json`)
 * is mounted by SwaggerModule, not by a controller; test/system/swagger.e2e-spec.ts covers it.
 */
const OUTSIDE_ROLE_MODEL: Record<string, string> = {};

describe('Role matrices - union covers every declared route', () => {
  let t: TestApp;
  let declared: string[];
  beforeAll(async () => {
    t = await startTestApp();
    declared = declaredRoutes(t).map((r) => r.route);
  });
  afterAll(() => t.close());

  /** Route -> the tables that hold it (one entry per row, so duplicates show twice). */
  function owners(): Map<string, string[]> {
    const byRoute = new Map<string, string[]>();
    for (const [table, rows] of Object.entries(TABLES)) {
      for (const row of rows) {
        const key = routeKey(row);
        byRoute.set(key, [...(byRoute.get(key) ?? []), table]);
      }
    }
    return byRoute;
  }

  it('finds the routes of the app', () => {
    expect(declared.length).toBeGreaterThanOrEqual(23);
    expect(new Set(declared).size).toBe(declared.length);
  });

  it('puts every declared route in exactly one table or the allow-list', () => {
    const byRoute = owners();
    const misplaced = declared
      .map((route) => {
        const tables = byRoute.get(route) ?? [];
        const allowListed = route in OUTSIDE_ROLE_MODEL;
        return { route, tables, allowListed };
      })
      .filter(({ tables, allowListed }) => tables.length + (allowListed ? 1 : 0) !== 1);
    expect(misplaced).toEqual([]);
  });

  it('has no table row or allow-list entry that is not a declared route', () => {
    const known = new Set(declared);
    const stale = [...owners().keys(), ...Object.keys(OUTSIDE_ROLE_MODEL)].filter(
      (route) => !known.has(route),
    );
    expect(stale).toEqual([]);
  });
});
