import request from 'supertest';
import { addMember, bearer, createProject } from '../support/catalog';
import { freshServiceAccount, grant, loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import { freshLogin, freshMember } from '../support/findings-seed';

let t: TestApp;
let admin: Login;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
});
afterAll(() => t.close());

describe('Create project - /api/v1/projects (POST)', () => {
  it('creates a project for an admin and makes the creator its admin member', async () => {
    const project = await createProject(t, bearer(admin), 'Payments platform');
    expect(project).toMatchObject({ name: 'Payments platform' });
    const members = await request(t.url)
      .get(`/api/v1/projects/${project.id}/members`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(members.body.data).toEqual([
      expect.objectContaining({ user_id: admin.userId, role: 'admin' }),
    ]);
  });

  it('refuses a duplicate name (409) and a missing name (400)', async () => {
    const project = await createProject(t, bearer(admin));
    await request(t.url)
      .post('/api/v1/projects')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ name: project.name })
      .expect(409);
    await request(t.url)
      .post('/api/v1/projects')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({})
      .expect(400);
  });

  it('needs create_project: plain users 403, keys only with the global grant', async () => {
    const plain = await freshLogin(t, admin);
    await request(t.url)
      .post('/api/v1/projects')
      .set('Authorization', `Bearer ${plain.token}`)
      .send({ name: 'x' })
      .expect(403);
    const sa = await freshServiceAccount(t, admin);
    await request(t.url)
      .post('/api/v1/projects')
      .set('X-API-Key', sa.key)
      .send({ name: 'y' })
      .expect(403);
    await grant(t, admin, sa.id, { permission: 'create_project', level: 'global' }).then((r) =>
      expect(r.status).toBe(201),
    );
    const res = await request(t.url)
      .post('/api/v1/projects')
      .set('X-API-Key', sa.key)
      .send({ name: `by-key-${Date.now()}` })
      .expect(201);
    expect(res.body.data.id).toEqual(expect.any(String));
  });
});

describe('List projects - /api/v1/projects (GET)', () => {
  it('shows members only their projects; admins all', async () => {
    const mine = await createProject(t, bearer(admin));
    const other = await createProject(t, bearer(admin));
    const viewer = await freshMember(t, admin, mine.id, 'viewer');
    // Membership is read per request: the token issued before the change sees the project.
    const res = await request(t.url)
      .get('/api/v1/projects')
      .set('Authorization', `Bearer ${viewer.token}`)
      .expect(200);
    const ids = (res.body.data as { id: string }[]).map((p) => p.id);
    expect(ids).toEqual([mine.id]);
    const all = await request(t.url)
      .get('/api/v1/projects')
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect((all.body.data as { id: string }[]).map((p) => p.id)).toEqual(
      expect.arrayContaining([mine.id, other.id]),
    );
  });

  it('is for users only: a service key gets 403', async () => {
    const sa = await freshServiceAccount(t, admin);
    await request(t.url).get('/api/v1/projects').set('X-API-Key', sa.key).expect(403);
  });
});

describe('Get project - /api/v1/projects/{id} (GET)', () => {
  it('answers 404 alike for a project the user is not in and for a missing one', async () => {
    const project = await createProject(t, bearer(admin));
    const outsider = await freshLogin(t, admin);
    const hidden = await request(t.url)
      .get(`/api/v1/projects/${project.id}`)
      .set('Authorization', `Bearer ${outsider.token}`)
      .expect(404);
    const missing = await request(t.url)
      .get('/api/v1/projects/00000000-0000-4000-8000-000000000000')
      .set('Authorization', `Bearer ${outsider.token}`)
      .expect(404);
    expect(hidden.body).toEqual(missing.body);
    await request(t.url)
      .get(`/api/v1/projects/${project.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
  });
});

describe('Project settings - /api/v1/projects/{id}/settings (GET, PUT)', () => {
  it('starts with the spec defaults and lets a project admin change them', async () => {
    const project = await createProject(t, bearer(admin));
    const res = await request(t.url)
      .get(`/api/v1/projects/${project.id}/settings`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(res.body.data).toEqual({
      remediation_days: { CRITICAL: 7, HIGH: 14, MEDIUM: 30, LOW: 90, INFO: null },
      auto_verify_fixes: false,
    });
    const put = await request(t.url)
      .put(`/api/v1/projects/${project.id}/settings`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ remediation_days: { HIGH: 10, LOW: null }, auto_verify_fixes: true })
      .expect(200);
    expect(put.body.data).toEqual({
      remediation_days: { CRITICAL: 7, HIGH: 10, MEDIUM: 30, LOW: null, INFO: null },
      auto_verify_fixes: true,
    });
  });

  it('lets an analyst read but not change settings; rejects 0 days', async () => {
    const project = await createProject(t, bearer(admin));
    const analyst = await freshMember(t, admin, project.id, 'analyst');
    const a = analyst;
    await request(t.url)
      .get(`/api/v1/projects/${project.id}/settings`)
      .set('Authorization', `Bearer ${a.token}`)
      .expect(200);
    await request(t.url)
      .put(`/api/v1/projects/${project.id}/settings`)
      .set('Authorization', `Bearer ${a.token}`)
      .send({ auto_verify_fixes: true })
      .expect(403);
    await request(t.url)
      .put(`/api/v1/projects/${project.id}/settings`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ remediation_days: { HIGH: 0 } })
      .expect(400);
  });
});

describe('Project members - /api/v1/projects/{id}/members (GET, PUT, DELETE)', () => {
  it('project admins manage members; analysts cannot; removal revokes access', async () => {
    const project = await createProject(t, bearer(admin));
    const lead = await freshLogin(t, admin);
    const dev = await freshLogin(t, admin);
    await addMember(t, bearer(admin), project.id, lead.userId, 'admin');
    const leadLogin = lead;
    await addMember(t, bearer(leadLogin), project.id, dev.userId, 'analyst');
    const devLogin = dev;
    await request(t.url)
      .put(`/api/v1/projects/${project.id}/members/${lead.userId}`)
      .set('Authorization', `Bearer ${devLogin.token}`)
      .send({ role: 'viewer' })
      .expect(403);
    const list = await request(t.url)
      .get(`/api/v1/projects/${project.id}/members`)
      .set('Authorization', `Bearer ${devLogin.token}`)
      .expect(200);
    expect((list.body.data as { role: string }[]).map((m) => m.role).sort()).toEqual([
      'admin',
      'admin',
      'analyst',
    ]);
    await request(t.url)
      .delete(`/api/v1/projects/${project.id}/members/${dev.userId}`)
      .set('Authorization', `Bearer ${leadLogin.token}`)
      .expect(204);
    await request(t.url)
      .get(`/api/v1/projects/${project.id}`)
      .set('Authorization', `Bearer ${devLogin.token}`)
      .expect(404);
    await request(t.url)
      .delete(`/api/v1/projects/${project.id}/members/${dev.userId}`)
      .set('Authorization', `Bearer ${leadLogin.token}`)
      .expect(404);
  });

  it('rejects an unknown role (400) and an unknown user (404)', async () => {
    const project = await createProject(t, bearer(admin));
    const u = await freshLogin(t, admin);
    await request(t.url)
      .put(`/api/v1/projects/${project.id}/members/${u.userId}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ role: 'owner' })
      .expect(400);
    await request(t.url)
      .put(`/api/v1/projects/${project.id}/members/00000000-0000-4000-8000-000000000001`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ role: 'viewer' })
      .expect(404);
  });

  it('takes ids in upper case as the same object (member answered, one row, DELETE finds it)', async () => {
    const project = await createProject(t, bearer(admin));
    const u = await freshLogin(t, admin);
    const shouted = `/api/v1/projects/${project.id.toUpperCase()}/members/${u.userId.toUpperCase()}`;
    const put = await request(t.url)
      .put(shouted)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ role: 'viewer' })
      .expect(200);
    expect(put.body.data).toMatchObject({ user_id: u.userId, role: 'viewer' });
    const list = await request(t.url)
      .get(`/api/v1/projects/${project.id}/members`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect((list.body.data as { user_id: string }[]).map((m) => m.user_id)).toContain(u.userId);
    await request(t.url).delete(shouted).set('Authorization', `Bearer ${admin.token}`).expect(204);
  });
});
