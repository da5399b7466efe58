import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { bearer } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { freshMember, freshProduct, seedFindings, type Product } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { insertProviderRow } from './support/provider-row';

// The ticket on GET /findings/{id} and the ticket_* columns of the list (design §3.8): tickets
// written straight into tickets / finding_tickets, read back through the real API.
jest.setTimeout(120_000);

let t: TestApp;
let admin: Login;
let viewer: Login;
let product: Product;
let providerId: string;
let ids: string[];
let groupTicket: string;
let unticketed: string;

async function insertTicket(
  key: string,
  status: string,
  findings: string[],
  linkedAt: string,
): Promise<string> {
  const id = randomUUID();
  await withDb(t, async (db) => {
    await db.query(
      `INSERT INTO tickets (id, project_id, installed_plugin_id, task_id, task_key, url, status,
              raw_status, origin, label, status_synced_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'group', $9, '2026-11-01T10:00:00Z')`,
      [
        id,
        product.project_id,
        providerId,
        `task-${key}`,
        key,
        `https://jira.example.com/browse/${key}`,
        status,
        `raw ${status}`,
        `findsvc-g-${key}`,
      ],
    );
    await db.query(
      `INSERT INTO finding_tickets (finding_id, ticket_id, linked_at)
       SELECT unnest($1::uuid[]), $2, $3`,
      [findings, id, linkedAt],
    );
  });
  return id;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  viewer = await freshMember(t, admin, product.project_id, 'viewer');
  providerId = await insertProviderRow(t);
  ids = await seedFindings(
    t,
    product,
    ['a', 'b', 'c'].map((s) => ({ title: `Ticketed ${s}`, severity: 'HIGH' })),
  );
  groupTicket = await insertTicket(
    'SEC-7',
    'in_progress',
    [ids[0], ids[1]] as string[],
    '2026-11-02T08:00:00Z',
  );
  unticketed = ids[2] as string;
});

afterAll(async () => {
  await t?.close();
});

const get = (path: string) => bearer(viewer).apply(request(t.url).get(path));

describe('Tickets - on the finding and in the list', () => {
  it('GET one finding carries its ticket (the {ticket} shape and linked_at); null without one', async () => {
    const res = await get(`/api/v1/findings/${ids[0]}`).expect(200);
    expect(res.body.data.ticket).toEqual({
      id: groupTicket,
      provider_plugin_id: providerId,
      task_id: 'task-SEC-7',
      task_key: 'SEC-7',
      url: 'https://jira.example.com/browse/SEC-7',
      status: 'in_progress',
      raw_status: 'raw in_progress',
      origin: 'group',
      finding_count: 2,
      status_synced_at: '2026-11-01T10:00:00.000Z',
      sync_error: null,
      linked_at: '2026-11-02T08:00:00.000Z',
    });
    expect(res.body.data).toMatchObject({
      ticket_key: 'SEC-7',
      ticket_status: 'in_progress',
      ticket_url: 'https://jira.example.com/browse/SEC-7',
    });
    const none = await get(`/api/v1/findings/${unticketed}`).expect(200);
    expect(none.body.data.ticket).toBeNull();
    expect(none.body.data).toMatchObject({
      ticket_key: null,
      ticket_status: null,
      ticket_url: null,
    });
  });

  it('list items carry ticket_key, ticket_status and ticket_url (null without a ticket)', async () => {
    const res = await get(`/api/v1/findings?project_id=${product.project_id}&limit=50`).expect(200);
    const byId = new Map(
      (res.body.data.items as Array<Record<string, unknown>>).map((i) => [i['id'], i]),
    );
    expect(byId.size).toBe(3);
    for (const id of [ids[0], ids[1]]) {
      expect(byId.get(id)).toMatchObject({
        ticket_key: 'SEC-7',
        ticket_status: 'in_progress',
        ticket_url: 'https://jira.example.com/browse/SEC-7',
      });
    }
    expect(byId.get(ids[2])).toMatchObject({
      ticket_key: null,
      ticket_status: null,
      ticket_url: null,
    });
    // One row per finding: the join never multiplies rows.
    expect(res.body.data.items).toHaveLength(3);
  });

  it('a status the webhook stored shows on the next read; a PATCH answer carries the ticket too', async () => {
    await withDb(t, (db) =>
      db.query(`UPDATE tickets SET status = 'resolved' WHERE id = $1`, [groupTicket]),
    );
    const res = await get(
      `/api/v1/findings?project_id=${product.project_id}&q=ticket:resolved`,
    ).expect(200);
    expect(
      (res.body.data.items as Array<{ id: string; ticket_status: string }>)
        .map((i) => [i.id, i.ticket_status])
        .sort(),
    ).toEqual(
      [
        [ids[0], 'resolved'],
        [ids[1], 'resolved'],
      ].sort(),
    );
    const patched = await bearer(admin)
      .apply(request(t.url).patch(`/api/v1/findings/${ids[1]}`).send({ comment: 'tracked' }))
      .expect(200);
    expect(patched.body.data.ticket).toMatchObject({
      task_key: 'SEC-7',
      status: 'resolved',
      finding_count: 2,
    });
  });
});
