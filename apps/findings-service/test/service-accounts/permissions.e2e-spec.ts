import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  PERMISSION_ALLOWED_LEVELS,
  PERMISSION_LEVELS,
  PERMISSION_NAMES,
} from '../../src/app/access/permissions';
import { freshServiceAccount, grant, loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

function scopeFor(level: string): Record<string, string> {
  if (level === 'project') return { project_id: randomUUID() };
  if (level === 'product') return { product_id: randomUUID() };
  return {};
}

describe('Permissions - /api/v1/admin/service-accounts/{id}/permissions (POST, GET, DELETE)', () => {
  let t: TestApp;
  let admin: Login;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('rejects every incompatible permission level with 400', async () => {
    const sa = await freshServiceAccount(t, admin);
    let checked = 0;
    for (const permission of PERMISSION_NAMES) {
      for (const level of PERMISSION_LEVELS) {
        if ((PERMISSION_ALLOWED_LEVELS[permission] as readonly string[]).includes(level)) continue;
        const res = await grant(t, admin, sa.id, { permission, level, ...scopeFor(level) }).expect(
          400,
        );
        expect(res.body.code).toBe('permission_level_invalid');
        checked++;
      }
    }
    expect(checked).toBe(11); // 36 combinations, 25 allowed by the spec table
  });

  it('accepts every compatible level (write_findings global only with an expiry)', async () => {
    const sa = await freshServiceAccount(t, admin);
    const expires_at = new Date(Date.now() + 86400_000).toISOString();
    for (const permission of PERMISSION_NAMES) {
      for (const level of PERMISSION_ALLOWED_LEVELS[permission]) {
        const extra = permission === 'write_findings' && level === 'global' ? { expires_at } : {};
        await grant(t, admin, sa.id, { permission, level, ...scopeFor(level), ...extra }).expect(
          201,
        );
      }
    }
  });

  it('requires an expiry for a global write_findings grant', async () => {
    const sa = await freshServiceAccount(t, admin);
    const res = await grant(t, admin, sa.id, {
      permission: 'write_findings',
      level: 'global',
    }).expect(400);
    expect(res.body.code).toBe('permission_expiry_required');
    const past = await grant(t, admin, sa.id, {
      permission: 'write_findings',
      level: 'global',
      expires_at: new Date(Date.now() - 1000).toISOString(),
    }).expect(400);
    expect(past.body.code).toBe('permission_expiry_in_past');
  });

  it('requires exactly the scope of the level, and known names', async () => {
    const sa = await freshServiceAccount(t, admin);
    for (const body of [
      { permission: 'read_findings', level: 'project' },
      { permission: 'read_findings', level: 'global', project_id: randomUUID() },
      { permission: 'read_findings', level: 'product', project_id: randomUUID() },
    ]) {
      expect((await grant(t, admin, sa.id, body).expect(400)).body.code).toBe(
        'permission_scope_invalid',
      );
    }
    expect(
      (await grant(t, admin, sa.id, { permission: 'fly', level: 'global' }).expect(400)).body.code,
    ).toBe('validation_failed');
  });

  it('lists and removes grants; scoped grants limit what the key can do', async () => {
    const sa = await freshServiceAccount(t, admin);
    const project = randomUUID();
    const created = await grant(t, admin, sa.id, {
      permission: 'read_findings',
      level: 'project',
      project_id: project,
    }).expect(201);
    const list = await request(t.url)
      .get(`/api/v1/admin/service-accounts/${sa.id}/permissions`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: created.body.data.id, project_id: project, level: 'project' }),
    ]);
    const own = await request(t.url)
      .get(`/api/v1/test-probe/projects/${project}/findings`)
      .set('X-API-Key', sa.key)
      .expect(200);
    expect(own.body.data.allowed).toBe(true);
    const other = await request(t.url)
      .get(`/api/v1/test-probe/projects/${randomUUID()}/findings`)
      .set('X-API-Key', sa.key)
      .expect(200);
    expect(other.body.data.allowed).toBe(false);
    const denied = await request(t.url)
      .get('/api/v1/test-probe/upload')
      .set('X-API-Key', sa.key)
      .expect(403);
    expect(denied.body.code).toBe('permission_denied');
    await request(t.url)
      .delete(`/api/v1/admin/service-accounts/${sa.id}/permissions/${created.body.data.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(204);
    await request(t.url)
      .get(`/api/v1/test-probe/projects/${project}/findings`)
      .set('X-API-Key', sa.key)
      .expect(403);
  });

  it('ignores expired grants and refuses keys on user-only permission routes', async () => {
    const sa = await freshServiceAccount(t, admin);
    await t.app.get(DataSource).query(
      `INSERT INTO service_account_permissions (service_account_id, permission, level, expires_at)
       VALUES ($1, 'upload_report', 'global', now() - interval '1 minute')`,
      [sa.id],
    );
    await request(t.url).get('/api/v1/test-probe/upload').set('X-API-Key', sa.key).expect(403);
    await grant(t, admin, sa.id, { permission: 'read_metrics', level: 'global' }).expect(201);
    const res = await request(t.url)
      .get('/api/v1/test-probe/user-only-permission')
      .set('X-API-Key', sa.key)
      .expect(403);
    expect(res.body.code).toBe('access_denied');
  });
});
