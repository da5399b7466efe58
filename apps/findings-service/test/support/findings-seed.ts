import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  addMember,
  apiKey,
  Auth,
  bearer,
  createProduct,
  createProject,
  ProjectRole,
} from './catalog';
import { freshServiceAccount, freshUser, grant, login, Login, loginAdmin } from './sessions';
import { startTestApp, TestApp } from './test-app';

/** Columns a test may set on a seeded finding (everything else gets a plain default). */
export interface SeedFinding {
  title?: string;
  description?: string;
  rule_id?: string;
  severity?: string;
  status?: string;
  host?: string | null;
  ip?: string | null;
  file_path?: string | null;
  service?: string | null;
  cve?: string | null;
  cwe?: string[];
  component?: string | null;
  component_version?: string | null;
  scanner?: string;
  tags?: string[];
  report_tags?: string[];
  enrichment_tags?: string[];
  sla_days?: number | null;
  baseline_state?: string | null;
  kind?: string;
  suppressed?: boolean;
  created_at?: string;
  last_seen_at?: string;
}

export interface Product {
  id: string;
  project_id: string;
  name: string;
}

/** Inserts findings straight into the table (one statement); returns their ids in order. */
export async function seedFindings(
  t: TestApp,
  product: Product,
  rows: SeedFinding[],
): Promise<string[]> {
  const now = new Date().toISOString();
  const full = rows.map((r, i) => ({
    identity_hash: randomBytes(32).toString('hex'),
    title: r.title ?? `finding ${i}`,
    description: r.description ?? 'seeded finding',
    rule_id: r.rule_id ?? `rule-${i}`,
    severity: r.severity ?? 'MEDIUM',
    status: r.status ?? 'new',
    host: r.host ?? null,
    ip: r.ip ?? null,
    file_path: r.file_path ?? null,
    service: r.service ?? null,
    cve: r.cve ?? null,
    cwe: r.cwe ?? [],
    component: r.component ?? null,
    component_version: r.component_version ?? null,
    scanner: r.scanner ?? 'seed-scanner',
    tags: r.tags ?? [],
    report_tags: r.report_tags ?? [],
    enrichment_tags: r.enrichment_tags ?? [],
    sla_days: r.sla_days === undefined ? 30 : r.sla_days,
    baseline_state: r.baseline_state ?? null,
    kind: r.kind ?? 'fail',
    suppressed: r.suppressed ?? false,
    created_at: r.created_at ?? now,
    last_seen_at: r.last_seen_at ?? r.created_at ?? now,
    ord: i,
  }));
  const rowsOut = (await t.app.get(DataSource).query(
    `INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
       description, severity, status, host, ip, file_path, service, cve, cwe, component,
       component_version, scanner, tags, report_tags, enrichment_tags, sla_days, baseline_state,
       kind, suppressed, first_seen_at, last_seen_at, created_at)
     SELECT $1, $2, identity_hash, 'code', rule_id, title, description, severity, status, host,
       ip, file_path, service, cve, cwe, component, component_version, scanner, tags,
       report_tags, enrichment_tags, sla_days, baseline_state, kind, suppressed, created_at,
       last_seen_at, created_at
       FROM json_to_recordset($3::json) AS r(identity_hash text, title text, description text,
         rule_id text, severity text, status text, host text, ip text, file_path text,
         service text, cve text, cwe text[], component text, component_version text,
         scanner text, tags text[], report_tags text[], enrichment_tags text[], sla_days int,
         baseline_state text, kind text, suppressed boolean, created_at timestamptz,
         last_seen_at timestamptz, ord int)
      ORDER BY ord
     RETURNING id, identity_hash`,
    [product.id, product.project_id, JSON.stringify(full)],
  )) as { id: string; identity_hash: string }[];
  const byHash = new Map(rowsOut.map((r) => [r.identity_hash, r.id]));
  return full.map((r) => byHash.get(r.identity_hash) ?? '');
}

/**
 * A fresh product, in a fresh project unless `projectId` names one (isolation per test, no
 * truncation).
 */
export async function freshProduct(t: TestApp, admin: Login, projectId?: string): Promise<Product> {
  const project = projectId ?? (await createProject(t, bearer(admin))).id;
  return createProduct(t, bearer(admin), project);
}

/** The app with the root admin signed in and one fresh product: where most tests start. */
export async function startWithProduct(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; admin: Login; product: Product }> {
  const t = await startTestApp(env);
  const admin = await loginAdmin(t);
  return { t, admin, product: await freshProduct(t, admin) };
}

/** A fresh user, signed in. */
export async function freshLogin(
  t: TestApp,
  admin: Login,
  options: { isAdmin?: boolean } = {},
): Promise<Login> {
  const u = await freshUser(t, admin, options);
  return login(t, u.email, u.password);
}

/** A fresh user, signed in, member of the project with `role`. */
export async function freshMember(
  t: TestApp,
  admin: Login,
  projectId: string,
  role: ProjectRole,
): Promise<Login> {
  const member = await freshLogin(t, admin);
  await addMember(t, bearer(admin), projectId, member.userId, role);
  return member;
}

/** A key holding `permission` at one level (project/product of `product`, or global). */
export async function keyWith(
  t: TestApp,
  admin: Login,
  grants: { permission: string; level: 'project' | 'product' | 'global'; product?: Product }[],
): Promise<Auth> {
  const sa = await freshServiceAccount(t, admin);
  for (const g of grants) {
    const scope =
      g.level === 'project'
        ? { project_id: g.product?.project_id }
        : g.level === 'product'
          ? { product_id: g.product?.id }
          : {};
    const expires =
      g.level === 'global' && g.permission === 'write_findings'
        ? { expires_at: new Date(Date.now() + 86_400_000).toISOString() }
        : {};
    await grant(t, admin, sa.id, {
      permission: g.permission,
      level: g.level,
      ...scope,
      ...expires,
    }).expect(201);
  }
  return apiKey(sa.key);
}

/** A pending report row inserted straight into the table, uploaded by the first user. */
export async function seedReport(
  t: TestApp,
  product: Product,
): Promise<{ id: string; created_at: Date }> {
  const [report] = (await t.app.get(DataSource).query(
    `INSERT INTO reports (id, product_id, project_id, file_name, storage_key, uploaded_by_kind,
       uploaded_by_id)
     SELECT gen_random_uuid(), $1, $2, 'r.sarif', 'r', 'user', id FROM users
      ORDER BY created_at LIMIT 1
     RETURNING id, created_at`,
    [product.id, product.project_id],
  )) as { id: string; created_at: Date }[];
  return report;
}

export interface FindingPage {
  items: ({ id: string } & Record<string, unknown>)[];
  next_cursor: string | null;
}

/** GET /api/v1/findings with query parameters; expects 200. */
export async function listFindings(
  t: TestApp,
  auth: Auth,
  query: Record<string, string | number>,
): Promise<FindingPage> {
  const res = await auth.apply(request(t.url).get('/api/v1/findings').query(query)).expect(200);
  return (res.body as { data: FindingPage }).data;
}

/** Ids of the findings of one product matched by `q` (sorted, for set comparisons). */
export async function idsFor(
  t: TestApp,
  auth: Auth,
  product: Product,
  query: Record<string, string | number>,
): Promise<string[]> {
  const page = await listFindings(t, auth, { product_id: product.id, limit: 500, ...query });
  return page.items.map((f) => f.id).sort();
}

export const uuid = (): string => randomUUID();
