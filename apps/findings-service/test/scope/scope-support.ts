import request from 'supertest';
import { bearer, createProject, type Auth } from '../support/catalog';
import { freshMember, keyWith } from '../support/findings-seed';
import type { Login } from '../support/sessions';
import type { TestApp } from '../support/test-app';

/** A fresh project of the admin's, with the base path of its perimeter routes. */
export async function freshScopeProject(
  t: TestApp,
  admin: Login,
): Promise<{ id: string; base: string }> {
  const project = await createProject(t, bearer(admin));
  return { id: project.id, base: `/api/v1/projects/${project.id}/scope` };
}

export interface Answer<T = unknown> {
  status: number;
  body: { data?: T; error?: string; code?: string; problem?: string; fields?: unknown[] };
  text: string;
  headers: Record<string, string>;
}

function answer<T>(res: request.Response): Answer<T> {
  return {
    status: res.status,
    body: res.body as Answer<T>['body'],
    text: res.text,
    headers: res.headers as Record<string, string>,
  };
}

/** Sends `req` as `auth` (or anonymously). */
export async function send<T = unknown>(req: request.Test, auth?: Auth): Promise<Answer<T>> {
  return answer<T>(await (auth ? auth.apply(req) : req));
}

export function addEntries(
  t: TestApp,
  auth: Auth,
  base: string,
  entries: { value: string; mode?: 'include' | 'exclude'; comment?: string }[],
) {
  return send<ScopeEntry[]>(request(t.url).post(`${base}/entries`).send({ entries }), auth);
}

export async function filter(t: TestApp, auth: Auth, base: string, targets: string[]) {
  const res = await send<FilterResult>(
    request(t.url).post(`${base}/filter`).send({ targets }),
    auth,
  );
  if (res.status !== 200) throw new Error(`filter: ${res.status} ${res.text}`);
  return res.body.data as FilterResult;
}

export async function exportText(t: TestApp, auth: Auth, base: string): Promise<string[]> {
  const res = await send(request(t.url).get(`${base}/export?format=text`), auth);
  if (res.status !== 200) throw new Error(`export: ${res.status} ${res.text}`);
  return res.text.split('\n').filter((l) => l !== '');
}

export interface ScopeEntry {
  id: string;
  mode: string;
  kind: string;
  value: string;
  value_unicode: string;
  origin: string;
  origin_ref: string | null;
}

export interface FilterResult {
  inside: string[];
  outside: string[];
  invalid: { target: string; reason: string }[];
  counts: { inside: number; outside: number; invalid: number };
}

export interface Proposal {
  id: string;
  value: string;
  value_unicode: string;
  status: string;
  times_proposed: number;
  entry_id: string | null;
}

/** A key with `permission` on the project (project-level grant). */
export function scannerKey(
  t: TestApp,
  admin: Login,
  projectId: string,
  permissions: string[] = ['upload_report'],
): Promise<Auth> {
  return keyWith(
    t,
    admin,
    permissions.map((permission) => ({
      permission,
      level: 'project' as const,
      product: { id: '', project_id: projectId, name: '' },
    })),
  );
}

export async function member(
  t: TestApp,
  admin: Login,
  projectId: string,
  role: 'viewer' | 'analyst' | 'admin',
): Promise<Auth> {
  return bearer(await freshMember(t, admin, projectId, role));
}
