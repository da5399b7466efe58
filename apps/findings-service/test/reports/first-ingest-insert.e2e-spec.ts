import { DataSource } from 'typeorm';
import { NormalizedFinding } from '@platform/report-parsing';
import { FindingsBulkWriteRepository } from '../../src/modules/findings/bulk-write/findings-bulk-write.repository';
import { syntheticResults, writeBatch } from '../support/bulk-write-batches';
import { freshProduct, type Product, seedReport } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A product's first report is plainly inserted (INSERT_NEW, BatchTarget.firstIngest) instead of
 * upserted, until a batch meets an identity the product has. Each scenario runs twice, into a
 * product written the plain way and into one written only by the upsert, and the stored findings,
 * their action-log entries and the reported counts must be the same.
 */
let t: TestApp;
let admin: Login;
let db: DataSource;
let results: NormalizedFinding[];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  db = t.app.get(DataSource);
  results = await syntheticResults(30);
}, 60_000);
afterAll(() => t?.close());

const VOLATILE = [
  'id',
  'product_id',
  'project_id',
  'created_at',
  'updated_at',
  'first_seen_at',
  'last_seen_at',
];

interface Report {
  id: string;
  created_at: Date;
  firstIngest?: { insertOnly: boolean };
  batches: number;
}

async function report(product: Product, plain: boolean): Promise<Report> {
  const empty = await new FindingsBulkWriteRepository(db).productIsEmpty(product.id);
  const seeded = await seedReport(t, product);
  return {
    ...seeded,
    batches: 0,
    ...(plain && empty ? { firstIngest: { insertOnly: true } } : {}),
  };
}

/** Writes results[from, to) as the report's next batch; returns its counts. */
async function write(product: Product, r: Report, from: number, to: number) {
  const outcome = await writeBatch(db, product, r, r.batches, results.slice(from, to));
  r.batches += 1;
  return outcome;
}

/** Stored findings and their action log, report ids as the given names. */
async function stored(product: Product, names: Map<string, string>): Promise<unknown> {
  const findings = (await db.query(
    `SELECT * FROM findings WHERE product_id = $1 ORDER BY identity_hash`,
    [product.id],
  )) as Record<string, unknown>[];
  const actions = (await db.query(
    `SELECT f.identity_hash, a.actor_type, a.actor_label, a.action, a.from_value, a.to_value
       FROM finding_actions a JOIN findings f ON f.id = a.finding_id
      WHERE f.product_id = $1 ORDER BY f.identity_hash, a.id`,
    [product.id],
  )) as { to_value: Record<string, unknown> | null }[];
  const named = (id: unknown) => names.get(String(id)) ?? id;
  return {
    findings: findings.map((row) => {
      const out = Object.fromEntries(Object.entries(row).filter(([k]) => !VOLATILE.includes(k)));
      return {
        ...out,
        first_report_id: named(row.first_report_id),
        last_report_id: named(row.last_report_id),
      };
    }),
    actions: actions.map((a) => ({
      ...a,
      to_value: a.to_value && { ...a.to_value, report_id: named(a.to_value.report_id) },
    })),
  };
}

describe('First ingest by plain insert', () => {
  it('stores the same findings, entries and counts as the upsert, and keeps inserting plainly', async () => {
    const [plain, upserted] = [await freshProduct(t, admin), await freshProduct(t, admin)];
    const outcomes: unknown[][] = [[], []];
    const names = new Map<string, string>();
    for (const [i, product] of [plain, upserted].entries()) {
      const r = await report(product, i === 0);
      names.set(r.id, 'r1');
      outcomes[i].push(await write(product, r, 0, 10), await write(product, r, 10, 20));
      if (i === 0) expect(r.firstIngest).toEqual({ insertOnly: true });
      else expect(r.firstIngest).toBeUndefined();
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(outcomes[0][0]).toEqual({
      kind: 'written',
      counts: { new: 10, updated: 0, renewed: 0 },
    });
    expect(await stored(plain, names)).toEqual(await stored(upserted, names));
    const created = (await db.query(
      `SELECT count(*)::int AS n FROM finding_actions a JOIN findings f ON f.id = a.finding_id
        WHERE f.product_id = $1 AND a.action = 'created'`,
      [plain.id],
    )) as { n: number }[];
    expect(created[0].n).toBe(20);
  });

  it('upserts the batch that meets a known identity (own earlier batch, another report) and stops inserting plainly', async () => {
    const [plain, upserted] = [await freshProduct(t, admin), await freshProduct(t, admin)];
    const outcomes: unknown[][] = [[], []];
    const names = new Map<string, string>();
    for (const [i, product] of [plain, upserted].entries()) {
      // Both reports start while the product is empty (two uploads at once).
      const first = await report(product, i === 0);
      const second = await report(product, i === 0);
      names.set(first.id, 'r1').set(second.id, 'r2');
      outcomes[i].push(await write(product, first, 0, 10));
      // Results 5-9 again in the same report's next batch: one upsert, no duplicate rows.
      outcomes[i].push(await write(product, first, 5, 15));
      if (i === 0) expect(first.firstIngest).toEqual({ insertOnly: false });
      // The other report, still marked first, meets identities the first one wrote.
      outcomes[i].push(await write(product, second, 12, 25));
      if (i === 0) expect(second.firstIngest).toEqual({ insertOnly: false });
      outcomes[i].push(await write(product, second, 25, 30));
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(outcomes[0]).toEqual([
      { kind: 'written', counts: { new: 10, updated: 0, renewed: 0 } },
      { kind: 'written', counts: { new: 5, updated: 0, renewed: 0 } },
      { kind: 'written', counts: { new: 10, updated: 3, renewed: 0 } },
      { kind: 'written', counts: { new: 5, updated: 0, renewed: 0 } },
    ]);
    expect(await stored(plain, names)).toEqual(await stored(upserted, names));
    const rows = (await db.query(`SELECT count(*)::int AS n FROM findings WHERE product_id = $1`, [
      plain.id,
    ])) as { n: number }[];
    expect(rows[0].n).toBe(30);
  });
});
