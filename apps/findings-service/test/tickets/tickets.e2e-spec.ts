import type { INestApplicationContext } from '@nestjs/common';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { buildPlugin, componentCacheDir } from '@platform/plugin-sdk/build';
import { publisherKey } from '@platform/plugin-protocol/testing';
import { waitFor, type ServiceProcess } from '@platform/testing';
import { bearer } from '../support/catalog';
import { withDb } from '../support/findings-db';
import {
  freshMember,
  freshProduct,
  idsFor,
  seedFindings,
  type Product,
} from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  BUILD_TIMEOUT_MS,
  RUNNER_TOKEN,
  startRunnerProcess,
  type SignedCatalogPlugin,
} from '../catalog-plugins/support/catalog-plugin-lab';
import { seedInstalledPlugin } from '../catalog-plugins/support/installed-plugin-seed';
import { TicketStatusPoller } from '../../src/modules/tickets/ticket-status.poller';
import { TicketSyncFeed } from '../../src/modules/tickets/sync/ticket-sync.feed';
import { NEVER, startLifecycleWorker } from '../support/lifecycle-worker';
import { startJiraStandIn, type JiraStandIn } from './support/jira-stand-in';

// Tickets through the real runner: the jira-like test provider (fixtures/) against a loopback
// tracker in Jira REST v2 shape. Create, link, one task for a group, the semi-manual form.
const publisher = publisherKey();
jest.setTimeout(240_000);

const TOKEN = 'jira-token-secret-0123456789';
let runner: ServiceProcess | undefined;
let jira: JiraStandIn;
let t: TestApp;
let admin: Login;
let analyst: Login;
let product: Product;
let providerId: string;
let ids: string[];
let runnerEnv: Record<string, string>;
let worker: INestApplicationContext | undefined;

async function buildProvider(): Promise<SignedCatalogPlugin> {
  const out = await mkdtemp(join(tmpdir(), 'jira-like-provider-'));
  try {
    const built = await buildPlugin({
      sourceDir: join(__dirname, 'fixtures/jira-like-provider'),
      outDir: out,
      cacheDir: componentCacheDir(process.env),
      privateKeyPem: publisher.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      timeoutMs: BUILD_TIMEOUT_MS,
    });
    return { ...built, signature: built.signature ?? '' };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  const provider = await buildProvider();
  jira = await startJiraStandIn();
  const started = await startRunnerProcess();
  runner = started.runner;
  runnerEnv = {
    PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
    PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
    // The first call loads a 12 MB component: minutes on the shared 2-core machine.
    PLUGIN_RUNNER_CLIENT_TIMEOUT_MS: '240000',
  };
  t = await startTestApp(runnerEnv);
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  analyst = await freshMember(t, admin, product.project_id, 'analyst');
  providerId = await seedInstalledPlugin(t, provider, {
    publicKeyPem: publisher.publicKeyPem,
    settings: { base_url: jira.url },
  });
  await bearer(admin)
    .apply(
      request(t.url)
        .put(`/api/v1/projects/${product.project_id}/ticket-provider/config`)
        .send({
          plugin_id: providerId,
          settings: { base_url: jira.url, project_key: 'SEC', api_token: TOKEN },
          default_target: 'SEC',
        }),
    )
    .expect(200);
  ids = await seedFindings(
    t,
    product,
    Array.from({ length: 9 }, (_, i) => ({ title: `Finding ${i}`, severity: 'HIGH' })),
  );
}, 3 * BUILD_TIMEOUT_MS);

afterAll(async () => {
  await worker?.close();
  await t?.close();
  await runner?.stop();
  await jira?.close();
});

const as = (who: Login) => bearer(who);
const post = (path: string, body: object, who: Login = analyst) =>
  as(who).apply(request(t.url).post(path).send(body));
const ticketRows = () =>
  withDb(t, async (db) => (await db.query(`SELECT * FROM tickets ORDER BY created_at`)).rows);

describe('Tickets - create, link, group, creation form', () => {
  it('lists the targets of the project’s tracker with the project’s token', async () => {
    const res = await as(analyst)
      .apply(request(t.url).get(`/api/v1/projects/${product.project_id}/ticket-targets`))
      .expect(200);
    expect(res.body.data).toEqual([
      { id: 'SEC', name: 'Security' },
      { id: 'OPS', name: 'Operations' },
    ]);
    const asked = jira.requests.filter((r) => r.line.startsWith('GET /rest/api/2/project/search'));
    expect(asked.at(-1)?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('creates one task with the finding’s label and a comment; a second create is 409', async () => {
    const res = await post(`/api/v1/findings/${ids[0]}/ticket`, { comment: 'please fix' }).expect(
      201,
    );
    expect(res.body.data).toMatchObject({
      provider_plugin_id: providerId,
      task_key: 'SEC-1',
      url: `${jira.url}/browse/SEC-1`,
      status: 'open',
      origin: 'created',
      finding_count: 1,
    });
    expect(jira.issues).toHaveLength(1);
    expect(jira.issues[0]).toMatchObject({
      summary: 'Finding 0',
      labels: [`findsvc-${ids[0]}`],
      comments: ['please fix'],
    });
    const linked = await withDb(
      t,
      async (db) =>
        (
          await db.query(
            `SELECT actor_type, actor_id, to_value FROM finding_actions
            WHERE finding_id = $1 AND action = 'ticket_linked'`,
            [ids[0]],
          )
        ).rows,
    );
    expect(linked).toEqual([
      {
        actor_type: 'user',
        actor_id: analyst.userId,
        to_value: {
          ticket_id: res.body.data.id,
          task_key: 'SEC-1',
          url: `${jira.url}/browse/SEC-1`,
        },
      },
    ]);
    const again = await post(`/api/v1/findings/${ids[0]}/ticket`, {}).expect(409);
    expect(again.body.code).toBe('ticket_exists');
    expect(jira.issues).toHaveLength(1);
  });

  it('finds a task that already carries the label instead of creating a second one', async () => {
    jira.issues.push({
      id: '20001',
      key: 'SEC-77',
      project: 'SEC',
      summary: 'made earlier',
      description: '',
      labels: [`findsvc-${ids[1]}`],
      status: { name: 'In Progress', category: 'indeterminate' },
      comments: [],
    });
    const before = jira.issues.length;
    const res = await post(`/api/v1/findings/${ids[1]}/ticket`, {}).expect(201);
    expect(res.body.data).toMatchObject({ task_id: '20001', task_key: 'SEC-77' });
    expect(jira.issues).toHaveLength(before);
  });

  it('creates in the target asked for; a target the tracker refuses is a provider error', async () => {
    const ops = await post(`/api/v1/findings/${ids[2]}/ticket`, { target: 'OPS' }).expect(201);
    expect(ops.body.data.task_key).toMatch(/^OPS-\d+$/);
    const refused = await post(`/api/v1/findings/${ids[3]}/ticket`, { target: 'NOPE' }).expect(422);
    expect(refused.body).toMatchObject({
      code: 'ticket_provider_error',
      details: { reason: 'rejected' },
    });
    expect((await ticketRows()).some((r) => r.label === `findsvc-${ids[3]}`)).toBe(false);
  });

  it('links an existing task (read-status proves it), refuses an unknown one, replaces on request', async () => {
    const first = jira.issues[0];
    const res = await post(`/api/v1/findings/${ids[3]}/ticket/link`, {
      task_id: first?.id,
    }).expect(201);
    // The task is already known (created for another finding): one row, its key kept.
    expect(res.body.data).toMatchObject({
      task_key: 'SEC-1',
      url: `${jira.url}/browse/SEC-1`,
      finding_count: 2,
    });
    const unknown = await post(`/api/v1/findings/${ids[4]}/ticket/link`, {
      task_id: 'SEC-999',
    }).expect(422);
    expect(unknown.body).toMatchObject({
      code: 'ticket_provider_error',
      details: { reason: 'not-found' },
    });
    expect(
      (await post(`/api/v1/findings/${ids[3]}/ticket/link`, { task_id: '20001' })).status,
    ).toBe(409);
    const replaced = await post(`/api/v1/findings/${ids[3]}/ticket/link`, {
      task_id: '20001',
      replace: true,
    }).expect(201);
    expect(replaced.body.data).toMatchObject({ task_key: 'SEC-77', status: 'in_progress' });
    const entries = await withDb(t, async (db) =>
      (
        await db.query<{ task_key: string }>(
          `SELECT to_value->>'task_key' AS task_key FROM finding_actions
            WHERE finding_id = $1 AND action = 'ticket_linked' ORDER BY id`,
          [ids[3]],
        )
      ).rows.map((r) => r.task_key),
    );
    expect(entries).toEqual(['SEC-1', 'SEC-77']);
  });

  it('semi-manual: the creation form carries the label, stores nothing; the task is then linked by label', async () => {
    const res = await post('/api/v1/findings/ticket-url', { finding_ids: [ids[5]] }).expect(200);
    expect(res.body.data.label).toBe(`findsvc-${ids[5]}`);
    const form = new URL(res.body.data.url as string);
    expect(form.pathname).toBe('/secure/CreateIssueDetails!init.jspa');
    expect(form.searchParams.get('labels')).toBe(`findsvc-${ids[5]}`);
    expect(form.searchParams.get('summary')).toBe('Finding 5');
    expect((await ticketRows()).some((r) => r.label === `findsvc-${ids[5]}`)).toBe(false);
    // Nothing made yet: linking by label finds nothing.
    const none = await post(`/api/v1/findings/${ids[5]}/ticket/link`, { by_label: true }).expect(
      422,
    );
    expect(none.body.details).toEqual({ reason: 'not-found' });
    jira.issues.push({
      id: '30001',
      key: 'SEC-501',
      project: 'SEC',
      summary: 'made by hand',
      description: '',
      labels: [`findsvc-${ids[5]}`],
      status: { name: 'To Do', category: 'new' },
      comments: [],
    });
    const linked = await post(`/api/v1/findings/${ids[5]}/ticket/link`, { by_label: true }).expect(
      201,
    );
    expect(linked.body.data).toMatchObject({
      task_id: '30001',
      task_key: 'SEC-501',
      origin: 'linked',
    });
  });

  it('one task for a group: ticketed findings skipped (or 409), the group label, roll-up refused', async () => {
    const res = await post('/api/v1/findings/ticket/bulk', {
      finding_ids: [ids[6], ids[7], ids[0]],
      title: 'Weak TLS everywhere',
    }).expect(201);
    expect(res.body.data.skipped).toEqual([ids[0]]);
    expect([...res.body.data.linked].sort()).toEqual([ids[6], ids[7]].sort());
    expect(res.body.data.ticket).toMatchObject({ origin: 'group', finding_count: 2 });
    const issue = jira.issues.find((i) => i.id === res.body.data.ticket.task_id);
    expect(issue?.summary).toBe('Weak TLS everywhere (2)');
    expect(issue?.labels[0]).toMatch(/^findsvc-g-[0-9a-f]{16}$/);
    const strict = await post('/api/v1/findings/ticket/bulk', {
      finding_ids: [ids[8], ids[0]],
      title: 'x',
      skip_ticketed: false,
    }).expect(409);
    expect(strict.body.code).toBe('ticket_exists');
    const group = await post('/api/v1/findings/ticket/bulk', {
      group: { axis: 'component', key: 'openssl' },
      title: 'x',
    }).expect(400);
    expect(JSON.stringify(group.body)).toContain('/api/v1/findings/inventory-rollup/bulk-status');
  });

  it('a tracker refusing the token is 422 unauthorized, without the token in the answer', async () => {
    jira.failWith = 401;
    try {
      const res = await post(`/api/v1/findings/${ids[8]}/ticket`, {}).expect(422);
      expect(res.body).toMatchObject({
        code: 'ticket_provider_error',
        details: { reason: 'unauthorized' },
      });
      expect(JSON.stringify(res.body)).not.toContain(TOKEN);
    } finally {
      jira.failWith = undefined;
    }
  });

  it('a project without a provider answers 422 ticket_provider_not_configured', async () => {
    const other = await freshProduct(t, admin);
    const [id] = await seedFindings(t, other, [{ title: 'elsewhere' }]);
    const res = await post(`/api/v1/findings/${id}/ticket`, {}, admin).expect(422);
    expect(res.body.code).toBe('ticket_provider_not_configured');
  });
});

/** A Jira `jira:issue_updated` delivery moving the issue into a status. */
function jiraStatusEvent(
  issueId: string,
  name: string,
  category: 'new' | 'indeterminate' | 'done',
) {
  return {
    webhookEvent: 'jira:issue_updated',
    issue: { id: issueId, fields: { status: { name, statusCategory: { key: category } } } },
    changelog: { items: [{ field: 'status', fromString: 'To Do', toString: name }] },
  };
}

describe('Tickets - the tracker webhook', () => {
  let secret: string;
  const hook = (s: string, body: object, project = product.project_id) =>
    request(t.url).post(`/api/v1/webhooks/ticketing/${project}/${s}`).send(body);
  const statusOf = async (findingId: string) =>
    withDb(t, async (db) => {
      const rows = await db.query<{ status: string }>(`SELECT status FROM findings WHERE id = $1`, [
        findingId,
      ]);
      return rows.rows[0]?.status;
    });
  const ticketOf = async (taskId: string) =>
    withDb(
      t,
      async (db) => (await db.query(`SELECT * FROM tickets WHERE task_id = $1`, [taskId])).rows[0],
    );

  beforeAll(async () => {
    const res = await bearer(admin)
      .apply(request(t.url).post(`/api/v1/projects/${product.project_id}/ticket-webhook/rotate`))
      .expect(200);
    secret = res.body.data.secret as string;
  });

  it('stores a state change and logs it on the findings; the findings stay (tracker_closed_action none)', async () => {
    const res = await hook(secret, jiraStatusEvent('10001', 'Done', 'done')).expect(200);
    expect(res.body).toEqual({ data: { result: 'updated' } });
    expect(await ticketOf('10001')).toMatchObject({ status: 'resolved', raw_status: 'Done' });
    expect(await statusOf(ids[0] as string)).toBe('new');
    const logged = await withDb(
      t,
      async (db) =>
        (
          await db.query(
            `SELECT actor_label, to_value FROM finding_actions
            WHERE finding_id = $1 AND action = 'ticket_status_changed'`,
            [ids[0]],
          )
        ).rows,
    );
    expect(logged).toEqual([
      expect.objectContaining({
        actor_label: 'tracker webhook (jira-like-provider)',
        to_value: expect.objectContaining({ ticket_status: 'resolved', raw_status: 'Done' }),
      }),
    ]);
    // The same state again (our own transition echoed back): nothing changes.
    const echo = await hook(secret, jiraStatusEvent('10001', 'Done', 'done')).expect(200);
    expect(echo.body.data.result).toBe('unchanged');
  });

  it('ignores deliveries about no known task or without a state change', async () => {
    expect(
      (await hook(secret, jiraStatusEvent('99999', 'Done', 'done')).expect(200)).body.data,
    ).toEqual({ result: 'ignored' });
    const comment = { webhookEvent: 'comment_created', issue: { id: '10001' } };
    expect((await hook(secret, comment).expect(200)).body.data.result).toBe('ignored');
  });

  it('answers 404 for a wrong secret, an unknown project and a previous secret past its grace', async () => {
    for (const res of [
      await hook(`${secret}x`, jiraStatusEvent('10001', 'To Do', 'new')),
      await hook('short', jiraStatusEvent('10001', 'To Do', 'new')),
      await hook(
        secret,
        jiraStatusEvent('10001', 'To Do', 'new'),
        '0b7f4a9e-1111-4c1a-9d1e-000000000009',
      ),
    ]) {
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
    expect((await ticketOf('10001')).status).toBe('resolved');
    // Rotated: the previous secret works during the grace, not after it.
    const rotated = await bearer(admin)
      .apply(request(t.url).post(`/api/v1/projects/${product.project_id}/ticket-webhook/rotate`))
      .expect(200);
    expect(
      (await hook(secret, jiraStatusEvent('10001', 'To Do', 'new')).expect(200)).body.data.result,
    ).toBe('updated');
    await withDb(t, (db) =>
      db.query(
        `UPDATE project_ticket_settings SET previous_valid_until = now() - interval '1 second'
          WHERE project_id = $1`,
        [product.project_id],
      ),
    );
    expect((await hook(secret, jiraStatusEvent('10001', 'Done', 'done'))).status).toBe(404);
    secret = rotated.body.data.secret as string;
    expect((await hook(secret, jiraStatusEvent('10001', 'Done', 'done'))).status).toBe(200);
  });

  it('mark_fixed: a closed task fixes its findings still needing attention, never others', async () => {
    await bearer(admin)
      .apply(
        request(t.url)
          .put(`/api/v1/projects/${product.project_id}/ticket-provider/config`)
          .send({
            plugin_id: providerId,
            settings: { base_url: jira.url, project_key: 'SEC' },
            tracker_closed_action: 'mark_fixed',
          }),
      )
      .expect(200);
    const group = await withDb(
      t,
      async (db) =>
        (
          await db.query<{ task_id: string; task_key: string }>(
            `SELECT t.task_id, t.task_key FROM tickets t JOIN finding_tickets ft ON ft.ticket_id = t.id
            WHERE ft.finding_id = $1`,
            [ids[6]],
          )
        ).rows[0],
    );
    await withDb(t, (db) =>
      db.query(`UPDATE findings SET status = 'risk_accepted' WHERE id = $1`, [ids[7]]),
    );
    await hook(secret, jiraStatusEvent(group?.task_id as string, 'Done', 'done')).expect(200);
    expect(await statusOf(ids[6] as string)).toBe('fixed');
    expect(await statusOf(ids[7] as string)).toBe('risk_accepted');
    const entry = await withDb(
      t,
      async (db) =>
        (
          await db.query(
            `SELECT actor_type, actor_label, to_value FROM finding_actions
            WHERE finding_id = $1 AND action = 'status_changed'`,
            [ids[6]],
          )
        ).rows[0],
    );
    expect(entry).toMatchObject({
      actor_type: 'system',
      actor_label: 'tracker webhook (jira-like-provider)',
      to_value: expect.objectContaining({
        status: 'fixed',
        justification: `task ${group?.task_key} closed in the tracker (Done)`,
      }),
    });
    // Reopened in the tracker: the fixed finding stays fixed.
    await hook(secret, jiraStatusEvent(group?.task_id as string, 'To Do', 'new')).expect(200);
    expect(await statusOf(ids[6] as string)).toBe('fixed');
  });

  it('answers HEAD with 200 (a tracker’s registration check)', async () => {
    await request(t.url)
      .head(`/api/v1/webhooks/ticketing/${product.project_id}/${secret}`)
      .expect(200);
  });
});

describe('Tickets - the query language', () => {
  const idsWhere = (q: string) => idsFor(t, bearer(analyst), product, { q });

  it('ticket: the state of the finding’s task, none without one', async () => {
    // After the tests above: ids[0]'s task was resolved by the webhook, ids[4] and ids[8] have none.
    const resolved = await idsWhere('ticket:resolved');
    expect(resolved).toContain(ids[0]);
    expect(resolved).not.toContain(ids[1]);
    const none = await idsWhere('ticket:none');
    expect(none).toEqual(expect.arrayContaining([ids[4], ids[8]]));
    expect(none).not.toContain(ids[0]);
    expect(await idsWhere('-ticket:none')).not.toContain(ids[4]);
    const refused = await bearer(analyst)
      .apply(request(t.url).get('/api/v1/findings').query({ q: 'ticket:lost' }))
      .expect(400);
    expect(JSON.stringify(refused.body)).toContain('ticket');
  });

  it('ticket_key: the task key, with globs', async () => {
    const sec77 = await idsWhere('ticket_key:SEC-77');
    expect(sec77).toEqual([ids[1], ids[3]].sort());
    expect(await idsWhere('ticket_key:SEC-7*')).toEqual(expect.arrayContaining([ids[1], ids[3]]));
    expect(await idsWhere('ticket_key:SEC-7*')).not.toContain(ids[0]);
  });
});

describe('Tickets - the hourly poll (projects whose tracker sends no webhooks)', () => {
  let polledFinding: string;
  let taskId: string;
  const ticket = async () =>
    withDb(
      t,
      async (db) =>
        (
          await db.query<{ status: string; raw_status: string; status_synced_at: Date }>(
            `SELECT status, raw_status, status_synced_at FROM tickets WHERE task_id = $1`,
            [taskId],
          )
        ).rows[0],
    );
  const setWebhookSecret = (hash: Buffer | null) =>
    withDb(t, (db) =>
      db.query(
        `UPDATE project_ticket_settings SET webhook_secret_hash = $2 WHERE project_id = $1`,
        [product.project_id, hash],
      ),
    );
  const poll = () => (worker as INestApplicationContext).get(TicketStatusPoller).pollOnce();
  /** The polled finding's action-log entries of one kind: who wrote them and what. */
  const actionsOf = (action: string) =>
    withDb(
      t,
      async (db) =>
        (
          await db.query(
            `SELECT actor_label, to_value FROM finding_actions
              WHERE finding_id = $1 AND action = $2`,
            [polledFinding, action],
          )
        ).rows,
    );

  beforeAll(async () => {
    // The webhook tests above issued a secret: this project now has none (never issued).
    await setWebhookSecret(null);
    [polledFinding] = (await seedFindings(t, product, [
      { title: 'Polled finding', severity: 'HIGH' },
    ])) as [string];
    // Closed tasks fix their findings here (the rule applies to the poll as to a webhook). The
    // service-to-tracker sync is off while the poll is tested: its jobs would call the tracker
    // too (the sync block below turns it on).
    await bearer(admin)
      .apply(
        request(t.url)
          .put(`/api/v1/projects/${product.project_id}/ticket-provider/config`)
          .send({
            plugin_id: providerId,
            settings: { base_url: jira.url, project_key: 'SEC' },
            tracker_closed_action: 'mark_fixed',
            sync_status_to_tracker: false,
          }),
      )
      .expect(200);
    const created = await post(`/api/v1/findings/${polledFinding}/ticket`, {}).expect(201);
    taskId = created.body.data.task_id as string;
    worker = await startLifecycleWorker(t, NEVER, runnerEnv);
  });

  it('asks read-status and stores a state the tracker changed, logged as the poll; mark_fixed fixes the finding', async () => {
    const issue = jira.issues.find((i) => i.id === taskId);
    if (!issue) throw new Error('the created task is not in the stand-in');
    issue.status = { name: 'Done', category: 'done' };
    const pass = await poll();
    expect(pass.updated).toBeGreaterThanOrEqual(1);
    expect(await ticket()).toMatchObject({ status: 'resolved', raw_status: 'Done' });
    const logged = await actionsOf('ticket_status_changed');
    expect(logged).toEqual([
      expect.objectContaining({
        actor_label: 'tracker poll (jira-like-provider)',
        to_value: expect.objectContaining({ ticket_status: 'resolved', raw_status: 'Done' }),
      }),
    ]);
    const finding = await as(analyst)
      .apply(request(t.url).get(`/api/v1/findings/${polledFinding}`))
      .expect(200);
    expect(finding.body.data.status).toBe('fixed');
    const fixedBy = await actionsOf('status_changed');
    expect(fixedBy).toEqual([
      expect.objectContaining({
        actor_label: 'tracker poll (jira-like-provider)',
        to_value: expect.objectContaining({
          status: 'fixed',
          justification: expect.stringContaining('closed in the tracker (Done)'),
        }),
      }),
    ]);
  });

  it('an unchanged state changes nothing but the check time; the oldest checked go first', async () => {
    const before = await ticket();
    const pass = await poll();
    expect(pass.updated).toBe(0);
    const after = await ticket();
    expect(after).toMatchObject({ status: 'resolved', raw_status: 'Done' });
    expect(after?.status_synced_at.getTime()).toBeGreaterThan(
      before?.status_synced_at.getTime() ?? Infinity,
    );
    // With a batch of one, the ticket checked longest ago is the one asked about.
    const oldest = await withDb(
      t,
      async (db) =>
        (
          await db.query<{ task_id: string }>(
            `SELECT task_id FROM tickets WHERE project_id = $1
              ORDER BY status_synced_at ASC NULLS FIRST, id LIMIT 1`,
            [product.project_id],
          )
        ).rows[0]?.task_id,
    );
    const seen = jira.requests.length;
    await (worker as INestApplicationContext).get(TicketStatusPoller).pollOnce(1);
    expect(jira.requests.slice(seen).map((r) => r.line)).toEqual([
      `GET /rest/api/2/issue/${oldest}?fields=status`,
    ]);
  });

  it('a tracker that fails is counted and asked again later, nothing changed; a project with webhooks is not polled', async () => {
    jira.failWith = 500;
    try {
      const pass = await poll();
      expect(pass.failed).toBeGreaterThanOrEqual(1);
      expect(pass.updated).toBe(0);
    } finally {
      jira.failWith = undefined;
    }
    expect(await ticket()).toMatchObject({ status: 'resolved' });

    await setWebhookSecret(Buffer.alloc(32, 7));
    const requests = jira.requests.length;
    expect(await poll()).toEqual({ checked: 0, updated: 0, fixed: 0, failed: 0 });
    expect(jira.requests.length).toBe(requests);
  });
});

describe('Tickets - service to tracker (a finding’s state moves its task)', () => {
  const syncFeed = () => (worker as INestApplicationContext).get(TicketSyncFeed);
  /**
   * Reads the feed until it has passed every transaction committed so far (a transaction
   * running elsewhere holds the feed's horizon back for a moment), then waits until no ticket
   * has a sync pending (the worker's jobs ran).
   */
  const synced = async () => {
    const mark = await withDb(t, async (db) =>
      BigInt((await db.query(`SELECT pg_current_xact_id()::text AS x`)).rows[0].x),
    );
    await waitFor(
      async () => {
        await syncFeed().tick();
        const boundary = await withDb(t, async (db) =>
          BigInt(
            (
              await db.query(
                `SELECT boundary::text AS b FROM action_feed_cursors WHERE consumer = 'tickets'`,
              )
            ).rows[0].b,
          ),
        );
        if (boundary <= mark) throw new Error(`the feed is at ${boundary}, not past ${mark}`);
      },
      { timeoutMs: 60_000, intervalMs: 100, what: 'the tickets feed' },
    );
    await waitFor(
      async () => {
        const pending = await withDb(t, async (db) =>
          Number(
            (await db.query(`SELECT count(*) FROM tickets WHERE sync_requested_at IS NOT NULL`))
              .rows[0].count,
          ),
        );
        if (pending > 0) throw new Error(`${pending} tickets still to sync`);
      },
      { timeoutMs: 120_000, intervalMs: 200, what: 'the ticket-sync jobs' },
    );
  };
  const setStatus = (id: string, status: string) =>
    as(analyst)
      .apply(
        request(t.url)
          .patch(`/api/v1/findings/${id}`)
          .send({ status, justification: `set to ${status} by the sync test` }),
      )
      .expect(200);
  const issueOf = (taskId: string) => {
    const issue = jira.issues.find((i) => i.id === taskId);
    if (!issue) throw new Error(`task ${taskId} is not in the stand-in`);
    return issue;
  };
  const transitionsOf = (taskId: string) =>
    jira.requests.filter((r) => r.line === `POST /rest/api/2/issue/${taskId}/transitions`).length;
  const ticketRow = (taskId: string) =>
    withDb(
      t,
      async (db) =>
        (
          await db.query<{ status: string; raw_status: string; sync_error: string | null }>(
            `SELECT status, raw_status, sync_error FROM tickets WHERE task_id = $1`,
            [taskId],
          )
        ).rows[0],
    );
  const putConfig = (sync: boolean) =>
    bearer(admin)
      .apply(
        request(t.url)
          .put(`/api/v1/projects/${product.project_id}/ticket-provider/config`)
          .send({
            plugin_id: providerId,
            settings: { base_url: jira.url, project_key: 'SEC' },
            tracker_closed_action: 'none',
            sync_status_to_tracker: sync,
          }),
      )
      .expect(200);
  const freshTicketed = async (title: string) => {
    const [id] = (await seedFindings(t, product, [{ title, severity: 'HIGH' }])) as [string];
    const created = await post(`/api/v1/findings/${id}/ticket`, {}).expect(201);
    return { id, taskId: created.body.data.task_id as string };
  };

  beforeAll(async () => {
    worker ??= await startLifecycleWorker(t, NEVER, runnerEnv);
    await putConfig(true);
    // What the blocks above changed is synced first (tracker-made changes move nothing).
    await synced();
  });

  it('a fixed finding resolves its task with a comment, logged on the finding; reopened, the task reopens', async () => {
    const { id, taskId } = await freshTicketed('Synced finding');
    expect(issueOf(taskId).status.name).toBe('To Do');

    await setStatus(id, 'fixed');
    await synced();
    expect(issueOf(taskId).status.name).toBe('Done');
    expect(issueOf(taskId).comments.at(-1)).toBe(
      'The finding is now fixed: the findings service moved this task to resolved.',
    );
    expect(await ticketRow(taskId)).toEqual({
      status: 'resolved',
      raw_status: 'Done',
      sync_error: null,
    });
    const logged = await withDb(
      t,
      async (db) =>
        (
          await db.query(
            `SELECT actor_label, to_value FROM finding_actions
              WHERE finding_id = $1 AND action = 'ticket_status_changed'`,
            [id],
          )
        ).rows,
    );
    expect(logged).toEqual([
      expect.objectContaining({
        actor_label: 'ticket sync (jira-like-provider)',
        to_value: expect.objectContaining({ ticket_status: 'resolved', raw_status: 'Done' }),
      }),
    ]);

    await setStatus(id, 'confirmed');
    await synced();
    expect(issueOf(taskId).status.name).toBe('To Do');
    expect((await ticketRow(taskId))?.status).toBe('open');
    expect(transitionsOf(taskId)).toBe(2);
  });

  it('a group task resolves only when every finding is closed', async () => {
    const members = await seedFindings(t, product, [
      { title: 'Group member A', severity: 'HIGH' },
      { title: 'Group member B', severity: 'HIGH' },
    ]);
    const res = await post('/api/v1/findings/ticket/bulk', {
      finding_ids: members,
      title: 'Synced group',
    }).expect(201);
    const taskId = res.body.data.ticket.task_id as string;

    await setStatus(members[0] as string, 'fixed');
    await synced();
    expect(transitionsOf(taskId)).toBe(0);
    expect(issueOf(taskId).status.name).toBe('To Do');

    await setStatus(members[1] as string, 'false_positive');
    await synced();
    expect(issueOf(taskId).status.name).toBe('Done');
    expect(issueOf(taskId).comments.at(-1)).toBe(
      'Its 2 findings are now 1 false_positive, 1 fixed: the findings service moved this task to resolved.',
    );
  });

  it('work started moves the task; triage does not undo it; with sync off nothing moves', async () => {
    const { id, taskId } = await freshTicketed('Started finding');
    await setStatus(id, 'in_progress');
    await synced();
    expect(issueOf(taskId).status.name).toBe('In Progress');

    await setStatus(id, 'confirmed');
    await synced();
    expect(issueOf(taskId).status.name).toBe('In Progress');
    expect(transitionsOf(taskId)).toBe(1);

    await putConfig(false);
    try {
      await setStatus(id, 'fixed');
      await synced();
      expect(issueOf(taskId).status.name).toBe('In Progress');
      expect(transitionsOf(taskId)).toBe(1);
    } finally {
      await putConfig(true);
    }
  });

  it('a tracker refusing the move is recorded on the ticket and shown, without the token; a later move clears it', async () => {
    const { id, taskId } = await freshTicketed('Refused finding');
    jira.failWith = 401;
    try {
      await setStatus(id, 'fixed');
      await synced();
    } finally {
      jira.failWith = undefined;
    }
    const row = await ticketRow(taskId);
    expect(row).toMatchObject({
      status: 'open',
      sync_error: expect.stringMatching(/^unauthorized/),
    });
    const shown = await as(analyst)
      .apply(request(t.url).get(`/api/v1/findings/${id}`))
      .expect(200);
    expect(shown.body.data.ticket.sync_error).toBe(row?.sync_error);
    expect(JSON.stringify(shown.body)).not.toContain(TOKEN);

    await setStatus(id, 'confirmed');
    await setStatus(id, 'fixed');
    await synced();
    expect(await ticketRow(taskId)).toMatchObject({ status: 'resolved', sync_error: null });
    expect(issueOf(taskId).status.name).toBe('Done');
  });
});
