import type request from 'supertest';
import { isLevelAllowed, PERMISSION_NAMES } from '../../src/app/access/permissions';
import { bearer, type Auth } from './catalog';
import { freshLogin, freshMember, keyWith } from './findings-seed';
import type { Login } from './sessions';
import type { TestApp } from './test-app';

/** The callers of a project-scoped route × caller matrix (test/access), in report order. */
export const PROJECT_CALLERS = [
  'anonymous',
  'key: read_findings',
  'key: every permission',
  'user: not a member',
  'user: viewer',
  'user: analyst',
  'user: project admin',
  'administrator',
] as const;
export type ProjectCaller = (typeof PROJECT_CALLERS)[number];

/** One route of a matrix: how to call it as a caller, and the status each caller gets. */
export interface MatrixRoute<C extends string> {
  name: string;
  call: (auth: Auth | undefined) => Promise<{ status: number; body: unknown }>;
  expected: Record<C, number>;
}

/** Sends a request as the caller (anonymous without credentials). */
export function send(req: request.Test, auth: Auth | undefined) {
  return (auth ? auth.apply(req) : req).then((res) => ({ status: res.status, body: res.body }));
}

/**
 * The eight callers of PROJECT_CALLERS for one project: anonymous, two global service keys
 * (read_findings only; every permission a key may hold globally), a user outside the project,
 * a viewer, an analyst and an admin of it, and the administrator.
 */
export async function projectCallers(
  t: TestApp,
  admin: Login,
  projectId: string,
): Promise<Record<ProjectCaller, Auth | undefined>> {
  const member = async (role: 'viewer' | 'analyst' | 'admin') =>
    bearer(await freshMember(t, admin, projectId, role));
  return {
    anonymous: undefined,
    'key: read_findings': await keyWith(t, admin, [
      { permission: 'read_findings', level: 'global' },
    ]),
    'key: every permission': await keyWith(
      t,
      admin,
      PERMISSION_NAMES.filter((p) => isLevelAllowed(p, 'global')).map((permission) => ({
        permission,
        level: 'global' as const,
      })),
    ),
    'user: not a member': bearer(await freshLogin(t, admin)),
    'user: viewer': await member('viewer'),
    'user: analyst': await member('analyst'),
    'user: project admin': await member('admin'),
    administrator: bearer(admin),
  };
}

/** Calls every route as every caller, one after the other; the answers the table did not expect. */
export async function wrongAnswers<C extends string>(
  routes: readonly MatrixRoute<C>[],
  callers: readonly C[],
  auths: Record<C, Auth | undefined>,
): Promise<string[]> {
  const wrong: string[] = [];
  for (const route of routes) {
    for (const caller of callers) {
      const { status, body } = await route.call(auths[caller]);
      if (status !== route.expected[caller]) {
        const shown = JSON.stringify(body).slice(0, 160);
        wrong.push(
          `${caller}: ${route.name} -> ${status} ${shown} (expected ${route.expected[caller]})`,
        );
      }
    }
  }
  return wrong;
}
