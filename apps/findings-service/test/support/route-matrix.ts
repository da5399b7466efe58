import type request from 'supertest';
import type { Auth } from './catalog';

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
