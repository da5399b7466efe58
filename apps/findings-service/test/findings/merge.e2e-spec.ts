import request from 'supertest';
import { DataSource } from 'typeorm';
import { bearer, type Auth } from '../support/catalog';
import {
  freshLogin,
  freshMember,
  freshProduct,
  seedFindings,
  uuid,
  type Product,
} from '../support/findings-seed';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { upsertPolledFindingsSql } from '../../src/modules/findings/polled-findings.sql';
import { codeResultsSarif, type CodeResult } from '../support/synthetic-sarif';

/**
 * Manual merge and unmerge (docs/findings-service/merge.md) on the real stack: reports are
 * uploaded through HTTP and ingested by the worker, so re-uploads go through the real upsert and
 * the memo (TOUCH) path.
 */
let s: IngestionStack;
let admin: Auth;

beforeAll(async () => {
  s = await startIngestion({ worker: true });
  admin = bearer(s.admin);
});
afterAll(() => s?.close());

type Row = Record<string, unknown>;

const sql = (text: string, values: unknown[] = []) =>
  s.t.app.get(DataSource).query(text, values) as Promise<Row[]>;

type Result = CodeResult & { line: number };

function sarif(results: Result[], tool = 'MergeScanner'): string {
  return codeResultsSarif(results, { tool, level: 'error' });
}

async function scan(p: Product, results: Result[], tool?: string) {
  const id = await uploadReport(s.t, admin, p.id, sarif(results, tool));
  const report = await waitForReport(s.t, admin, id);
  expect(report.status).toBe('completed');
  return report;
}

const A: Result = { rule: 'sql-injection', file: 'src/db.ts', line: 10 };
const B: Result = { rule: 'sqli-taint', file: 'src/db.ts', line: 11 };
const C: Result = { rule: 'xss', file: 'src/view.ts', line: 3 };

/** Every column of the product's findings by rule id, without updated_at. */
async function rowsByRule(p: Product): Promise<Record<string, Row>> {
  const rows = await sql(`SELECT * FROM findings WHERE product_id = $1`, [p.id]);
  return Object.fromEntries(
    rows.map((r) => {
      const { updated_at: _ignored, ...rest } = r;
      return [String(r['rule_id']), rest];
    }),
  );
}

async function idsByRule(p: Product): Promise<Record<string, string>> {
  const rows = await sql(`SELECT id, rule_id FROM findings WHERE product_id = $1`, [p.id]);
  return Object.fromEntries(rows.map((r) => [String(r['rule_id']), String(r['id'])]));
}

function merge(auth: Auth, body: object) {
  return auth.apply(request(s.t.url).post('/api/v1/findings/merge').send(body));
}

function unmerge(auth: Auth, id: string) {
  return auth.apply(request(s.t.url).post(`/api/v1/findings/${id}/unmerge`));
}

async function getFinding(id: string): Promise<Row> {
  const res = await admin.apply(request(s.t.url).get(`/api/v1/findings/${id}`)).expect(200);
  return (res.body as { data: Row }).data;
}

async function listedIds(p: Product): Promise<string[]> {
  const res = await admin
    .apply(request(s.t.url).get('/api/v1/findings').query({ product_id: p.id, limit: 500 }))
    .expect(200);
  return (res.body as { data: { items: { id: string }[] } }).data.items.map((f) => f.id).sort();
}

async function actionsOf(id: string): Promise<string[]> {
  const rows = await sql(`SELECT action FROM finding_actions WHERE finding_id = $1 ORDER BY id`, [
    id,
  ]);
  return rows.map((r) => String(r['action']));
}

/** A product with A, B, C ingested; B triaged (confirmed, tagged) so its fields are not defaults. */
async function ingested(): Promise<{ p: Product; ids: Record<string, string> }> {
  const p = await freshProduct(s.t, s.admin);
  await scan(p, [A, B, C]);
  const ids = await idsByRule(p);
  await admin
    .apply(
      request(s.t.url)
        .patch(`/api/v1/findings/${ids[B.rule]}`)
        .send({ status: 'confirmed', comment: 'same as the injection above' }),
    )
    .expect(200);
  await admin
    .apply(
      request(s.t.url)
        .post(`/api/v1/findings/${ids[B.rule]}/tags`)
        .send({ tags: ['dup-candidate'] }),
    )
    .expect(200);
  return { p, ids };
}

describe('Merge - POST /api/v1/findings/merge', () => {
  it('the survivor keeps every source and lists its members; the merged one leaves lists and counts', async () => {
    const { p, ids } = await ingested();
    const survivor = ids[A.rule]!;
    const member = ids[B.rule]!;
    const res = await merge(admin, { survivor_id: survivor, finding_ids: [member] }).expect(200);
    expect(res.body.data).toMatchObject({ survivor_id: survivor, merged_ids: [member] });

    const merged = await getFinding(member);
    expect(merged['merged_into_id']).toBe(survivor);
    expect(typeof merged['merged_at']).toBe('string');
    const kept = await getFinding(survivor);
    expect(kept['merged_into_id']).toBeNull();
    expect((kept['merged_members'] as Row[]).map((m) => m['id'])).toEqual([member]);
    const sources = kept['sources'] as Record<string, Row>;
    expect(Object.keys(sources).sort()).toEqual(['MergeScanner', `MergeScanner@${member}`]);
    expect(sources[`MergeScanner@${member}`]).toMatchObject({
      rule_id: B.rule,
      merged_from: member,
    });

    expect(await listedIds(p)).toEqual([ids[A.rule], ids[C.rule]].sort());
    const count = await admin
      .apply(request(s.t.url).get('/api/v1/findings/count').query({ product_id: p.id }))
      .expect(200);
    expect(count.body.data).toEqual({ count: 2, exact: true });
    const project = await admin
      .apply(request(s.t.url).get(`/api/v1/projects/${p.project_id}`))
      .expect(200);
    expect(project.body.data.finding_counts).toMatchObject({ total: 2, open: 2 });

    expect(await actionsOf(member)).toContain('merged');
    expect(await actionsOf(survivor)).toContain('merged');
  });

  it('re-uploading both original reports creates no new findings: the survivor is re-sighted', async () => {
    const { p, ids } = await ingested();
    const survivor = ids[A.rule]!;
    const member = ids[B.rule]!;
    await merge(admin, { survivor_id: survivor, finding_ids: [member] }).expect(200);
    const before = await rowsByRule(p);

    // Both results in one report (one batch: the member's result is folded into the survivor's),
    const both = await scan(p, [A, B, C]);
    expect(both.counts.new).toBe(0);
    // the member's result alone (memo path excluded, identity redirected),
    const alone = await scan(p, [B]);
    expect(alone.counts.new).toBe(0);
    // and the member's result from a second scanner.
    const other = await scan(p, [B], 'OtherScanner');
    expect(other.counts.new).toBe(0);

    const after = await rowsByRule(p);
    expect(Object.keys(after).sort()).toEqual([A.rule, B.rule, C.rule].sort());
    // The merged row is untouched by all three reports.
    expect(after[B.rule]).toEqual(before[B.rule]);
    // The survivor was re-sighted by the last report.
    const [last] = await sql(
      `SELECT id FROM reports WHERE product_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [p.id],
    );
    expect(after[A.rule]!['last_report_id']).toBe(last!['id']);
    expect(Object.keys(after[A.rule]!['sources'] as Row)).toContain('OtherScanner');
    expect(await listedIds(p)).toEqual([ids[A.rule], ids[C.rule]].sort());
  });

  it('unmerge restores the exact previous records (full rows but updated_at), with history', async () => {
    const { p, ids } = await ingested();
    const survivor = ids[A.rule]!;
    const members = [ids[B.rule]!, ids[C.rule]!];
    const before = await rowsByRule(p);
    await merge(admin, { survivor_id: survivor, finding_ids: members }).expect(200);
    expect(await listedIds(p)).toEqual([survivor]);

    // A member detaches alone; the survivor detaches the rest.
    const one = await unmerge(admin, members[0]!).expect(200);
    expect(one.body.data).toEqual({ survivor_id: survivor, unmerged_ids: [members[0]] });
    expect((await getFinding(survivor))['merged_members']).toHaveLength(1);
    const rest = await unmerge(admin, survivor).expect(200);
    expect(rest.body.data).toEqual({ survivor_id: survivor, unmerged_ids: [members[1]] });

    expect(await rowsByRule(p)).toEqual(before);
    expect(await listedIds(p)).toEqual(Object.values(ids).sort());
    for (const id of members)
      expect((await actionsOf(id)).slice(-2)).toEqual(['merged', 'unmerged']);
    // The survivor has one entry per unmerge.
    expect((await actionsOf(survivor)).slice(-3)).toEqual(['merged', 'unmerged', 'unmerged']);
    const history = await sql(
      `SELECT member_id, unmerged_at IS NOT NULL AS undone FROM finding_merges WHERE survivor_id = $1`,
      [survivor],
    );
    expect(history).toHaveLength(2);
    expect(history.every((h) => h['undone'] === true)).toBe(true);

    // A report after the unmerge re-sights each finding on its own again.
    const again = await scan(p, [A, B, C]);
    expect(again.counts).toMatchObject({ new: 0, updated: 3 });
  });

  it('refuses what cannot be merged, in the envelope, and changes nothing', async () => {
    const { p, ids } = await ingested();
    const [a, b, c] = [ids[A.rule]!, ids[B.rule]!, ids[C.rule]!];
    const other = await freshProduct(s.t, s.admin, p.project_id);
    const [foreign] = await seedFindings(s.t, other, [{ title: 'other product' }]);

    const self = await merge(admin, { survivor_id: a, finding_ids: [a] }).expect(422);
    expect(self.body.code).toBe('merge_into_self');
    const across = await merge(admin, { survivor_id: a, finding_ids: [foreign] }).expect(422);
    expect(across.body.code).toBe('merge_products_differ');
    expect(across.body.error).toMatch(/product/);
    const unknown = await merge(admin, { survivor_id: a, finding_ids: [uuid()] }).expect(404);
    expect(unknown.body.code).toBe('finding_not_found');
    await merge(admin, { survivor_id: a, finding_ids: [] }).expect(400);
    await merge(admin, { survivor_id: 'nope', finding_ids: [b] }).expect(400);
    await merge(admin, {
      survivor_id: a,
      finding_ids: Array.from({ length: 101 }, () => uuid()),
    }).expect(400);

    await merge(admin, { survivor_id: a, finding_ids: [b] }).expect(200);
    const again = await merge(admin, { survivor_id: c, finding_ids: [b] }).expect(422);
    expect(again.body.code).toBe('finding_already_merged');
    const intoMerged = await merge(admin, { survivor_id: b, finding_ids: [c] }).expect(422);
    expect(intoMerged.body.code).toBe('finding_already_merged');
    const chain = await merge(admin, { survivor_id: c, finding_ids: [a] }).expect(422);
    expect(chain.body.code).toBe('merge_member_has_members');
    const notMerged = await unmerge(admin, c).expect(422);
    expect(notMerged.body.code).toBe('finding_not_merged');
    await unmerge(admin, uuid()).expect(404);
    // A merged finding is not triaged while merged (the unmerge must restore it as it was).
    const patch = await admin
      .apply(request(s.t.url).patch(`/api/v1/findings/${b}`).send({ status: 'in_progress' }))
      .expect(422);
    expect(patch.body.code).toBe('finding_already_merged');
    const tags = await admin
      .apply(
        request(s.t.url)
          .post(`/api/v1/findings/${b}/tags`)
          .send({ tags: ['x'] }),
      )
      .expect(422);
    expect(tags.body.code).toBe('finding_already_merged');
    // Bulk changes naming it skip it.
    const bulk = await admin
      .apply(
        request(s.t.url)
          .post('/api/v1/findings/bulk-status')
          .send({ finding_ids: [b], status: 'in_progress' }),
      )
      .expect(200);
    expect(bulk.body.data).toMatchObject({ matched: 0, changed: 0 });
    const bulkTags = await admin
      .apply(
        request(s.t.url)
          .post('/api/v1/findings/bulk-tags')
          .send({ finding_ids: [b], add: ['x'] }),
      )
      .expect(200);
    expect(JSON.stringify(bulkTags.body.data)).not.toMatch(/"changed":[1-9]/);
    const [row] = await sql(`SELECT status, tags FROM findings WHERE id = $1`, [b]);
    expect(row).toEqual({ status: 'confirmed', tags: ['dup-candidate'] });
    expect((await getFinding(c))['merged_into_id']).toBeNull();
  });

  it('needs write_findings on the project: viewers 403, outsiders 404, analysts merge', async () => {
    const { p, ids } = await ingested();
    const [a, b] = [ids[A.rule]!, ids[B.rule]!];
    const viewer = bearer(await freshMember(s.t, s.admin, p.project_id, 'viewer'));
    const outsider = bearer(await freshLogin(s.t, s.admin));
    const analyst = bearer(await freshMember(s.t, s.admin, p.project_id, 'analyst'));
    expect((await merge(viewer, { survivor_id: a, finding_ids: [b] }).expect(403)).body.code).toBe(
      'access_denied',
    );
    await merge(outsider, { survivor_id: a, finding_ids: [b] }).expect(404);
    await merge(analyst, { survivor_id: a, finding_ids: [b] }).expect(200);
    await unmerge(viewer, b).expect(403);
    await unmerge(outsider, b).expect(404);
    await unmerge(analyst, b).expect(200);
  });

  it('deleting a survivor returns its members to the lists', async () => {
    const { p, ids } = await ingested();
    const [a, b] = [ids[A.rule]!, ids[B.rule]!];
    await merge(admin, { survivor_id: a, finding_ids: [b] }).expect(200);
    await admin.apply(request(s.t.url).delete(`/api/v1/findings/${a}`)).expect(204);
    expect((await getFinding(b))['merged_into_id']).toBeNull();
    expect(await listedIds(p)).toContain(b);
  });
  it("a finding source's poll of a merged identity re-sights the survivor, the merged row untouched", async () => {
    const { p, ids } = await ingested();
    const [a, b] = [ids[A.rule]!, ids[B.rule]!];
    await merge(admin, { survivor_id: a, finding_ids: [b] }).expect(200);
    const before = await rowsByRule(p);
    const [identities] = await sql(
      `SELECT array_agg(identity_hash ORDER BY rule_id) AS hashes FROM findings WHERE id = ANY($1)`,
      [[a, b]],
    );
    const [hashA, hashB] = identities!['hashes'] as string[];
    const node = (key: string, identityHash: string) => ({
      productId: p.id,
      nodeKey: key,
      identityHash,
      identityKind: 'location',
      rule: B.rule,
      severity: 'HIGH',
      title: 'polled',
      description: 'polled',
      host: 'db.example',
      ip: null,
      port: null,
      protocol: null,
      cve: null,
      component: null,
      componentVersion: null,
    });
    const seenAt = new Date(Date.now() + 60_000);
    // The member's identity twice and the survivor's own: one finding written once, all answered.
    const { sql: text, values } = upsertPolledFindingsSql(
      p.project_id,
      'PollSource',
      [node('n1', hashB!), node('n2', hashB!), node('n3', hashA!)],
      seenAt,
    );
    const answered = await sql(text, values);
    expect(answered.map((r) => [r['node_key'], r['id']]).sort()).toEqual([
      ['n1', a],
      ['n2', a],
      ['n3', a],
    ]);
    const after = await rowsByRule(p);
    expect(Object.keys(after).sort()).toEqual([A.rule, B.rule, C.rule].sort());
    expect(after[B.rule]).toEqual(before[B.rule]);
    expect((after[A.rule]!['last_seen_at'] as Date).getTime()).toBe(seenAt.getTime());
    expect(Object.keys(after[A.rule]!['sources'] as object)).toContain('PollSource');
  });
});
