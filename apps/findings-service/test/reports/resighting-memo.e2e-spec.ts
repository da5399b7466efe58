import { DataSource } from 'typeorm';
import { stagedBatch } from '../../src/modules/findings/bulk-write/finding-row';
import {
  BatchMeta,
  BatchTarget,
  FindingsBulkWriteRepository,
} from '../../src/modules/findings/bulk-write/findings-bulk-write.repository';
import { bufferReportSource, NormalizedFinding, readReport } from '@platform/report-parsing';
import { RESULT_MEMO_MIN_BYTES } from '../../src/modules/report-ingestion/report-ingestion.service';
import { bearer, createProduct, createProject } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { Login } from '../support/sessions';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { ReportView, uploadReport, waitForReport } from '../support/reports';
import { syntheticSarif } from '../support/synthetic-sarif';
import { TestApp } from '../support/test-app';
import { freshProduct, seedReport } from '../support/findings-seed';

/**
 * Unchanged re-sightings (ResultMemo): a report of at least RESULT_MEMO_MIN_BYTES gets the
 * product's findings by content digest, and results whose digest is known are only marked
 * seen. It must give exactly what normalizing them again gives: the same report sequence is
 * ingested into two products, once padded over the threshold (memo) and once not (every
 * result normalized), and the stored findings and report counts are compared after each step.
 */
let t: TestApp;
let admin: Login;
let stack: IngestionStack;
let db: DataSource;
/** Re-sighted rows per written batch, by product. */
const resighted = new Map<string, number>();

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  ({ t, admin } = stack);
  db = t.app.get(DataSource);
  const repository = stack.worker!.get(FindingsBulkWriteRepository);
  const write = repository.writeBatch.bind(repository);
  jest.spyOn(repository, 'writeBatch').mockImplementation((target, meta, batch, again) => {
    const rows = again?.staged.rows ?? 0;
    resighted.set(target.productId, (resighted.get(target.productId) ?? 0) + rows);
    return write(target, meta, batch, again);
  });
}, 30_000);
afterAll(() => stack.close());

/** Run-level bytes that normalization does not read: they only push a report over the threshold. */
function padded(sarif: string): string {
  const log = JSON.parse(sarif) as { runs: { properties?: object }[] };
  log.runs[0].properties = { padding: 'x'.repeat(RESULT_MEMO_MIN_BYTES) };
  return JSON.stringify(log);
}

function withTool(sarif: string, tool: string, version?: string): string {
  const log = JSON.parse(sarif) as { runs: { tool: { driver: Record<string, unknown> } }[] };
  log.runs[0].tool.driver.name = tool;
  if (version) log.runs[0].tool.driver.version = version;
  return JSON.stringify(log);
}

function withMessages(sarif: string, changed: number[]): string {
  const log = JSON.parse(sarif) as { runs: { results: { message: { text: string } }[] }[] };
  for (const i of changed) log.runs[0].results[i].message.text += ' (reworded)';
  return JSON.stringify(log);
}

const VOLATILE = new Set([
  'id',
  'product_id',
  'project_id',
  'created_at',
  'updated_at',
  'first_seen_at',
  'last_seen_at',
  'status_changed_at',
  'first_report_id',
  'last_report_id',
]);

/** Every stored column but ids and times; report ids as their step number. */
async function snapshot(productId: string, steps: Map<string, number>): Promise<unknown[]> {
  return withDb(t, async (client) => {
    const res = await client.query(
      `SELECT * FROM findings WHERE product_id = $1 ORDER BY identity_hash`,
      [productId],
    );
    return (res.rows as Record<string, unknown>[]).map((row) => {
      const out: Record<string, unknown> = {
        first_report: steps.get(String(row.first_report_id)),
        last_report: steps.get(String(row.last_report_id)),
        status_changed: row.status_changed_at !== null,
      };
      for (const [key, value] of Object.entries(row)) {
        if (VOLATILE.has(key)) continue;
        if (key === 'sources') {
          out.sources = Object.fromEntries(
            Object.entries(value as Record<string, Record<string, unknown>>).map(([k, v]) => {
              const { scanned_at: _scannedAt, ...rest } = v;
              return [k, rest];
            }),
          );
        } else out[key] = value;
      }
      return out;
    });
  });
}

interface Lane {
  productId: string;
  steps: Map<string, number>;
  pad: boolean;
}

async function ingest(lane: Lane, sarif: string, fields: Record<string, string> = {}) {
  const content = lane.pad ? padded(sarif) : sarif;
  const id = await uploadReport(t, bearer(admin), lane.productId, content, { fields });
  lane.steps.set(id, lane.steps.size + 1);
  return waitForReport(t, bearer(admin), id);
}

describe('Unchanged re-sightings (content digest memo)', () => {
  it('stores exactly what normalizing every result stores, through a sequence of reports', async () => {
    const project = await createProject(t, bearer(admin));
    const memo: Lane = {
      productId: (await createProduct(t, bearer(admin), project.id)).id,
      steps: new Map(),
      pad: true,
    };
    const plain: Lane = {
      productId: (await createProduct(t, bearer(admin), project.id)).id,
      steps: new Map(),
      pad: false,
    };
    const base = withTool(syntheticSarif(40), 'SynthScanner', '1.0');
    const sequence: { label: string; sarif: string; fields?: Record<string, string> }[] = [
      { label: 'first sighting', sarif: base },
      { label: 'same report, new commit', sarif: base, fields: { commit_id: 'c2' } },
      { label: 'new scanner version', sarif: withTool(base, 'SynthScanner', '1.1') },
      { label: 'after some were fixed', sarif: base },
      { label: 'another scanner, same results', sarif: withTool(base, 'OtherScanner', '7') },
      { label: 'first scanner again', sarif: base },
      { label: 'first scanner once more', sarif: base },
      { label: 'three results reworded', sarif: withMessages(base, [0, 5, 9]) },
      { label: 'back to the original', sarif: base },
    ];
    const memoCounts: ReportView['counts'][] = [];
    for (const [i, step] of sequence.entries()) {
      if (step.label === 'after some were fixed') {
        for (const lane of [memo, plain]) {
          await withDb(t, (client) =>
            client.query(
              `UPDATE findings SET status = 'fixed' WHERE id IN
                 (SELECT id FROM findings WHERE product_id = $1 ORDER BY identity_hash LIMIT 4)`,
              [lane.productId],
            ),
          );
        }
      }
      const a = await ingest(memo, step.sarif, step.fields);
      const b = await ingest(plain, step.sarif, step.fields);
      expect({ step: step.label, status: a.status, counts: a.counts }).toEqual({
        step: step.label,
        status: 'completed',
        counts: b.counts,
      });
      memoCounts.push(a.counts);
      expect(await snapshot(memo.productId, memo.steps)).toEqual(
        await snapshot(plain.productId, plain.steps),
      );
      if (i === 0) expect(resighted.get(memo.productId) ?? 0).toBe(0);
    }
    expect(memoCounts[3]).toEqual({ new: 0, updated: 36, renewed: 4, results: 40, duplicates: 0 });
    // The memo was used (the plain lane never gets one).
    expect(resighted.get(memo.productId)).toBe(40 * 3 + 37 + 37);
    expect(resighted.get(plain.productId) ?? 0).toBe(0);
    const renewed = await withDb(t, async (client) => {
      const res = await client.query(
        `SELECT count(*)::int AS n FROM finding_actions a JOIN findings f ON f.id = a.finding_id
          WHERE f.product_id = $1 AND a.action = 'renewed'`,
        [memo.productId],
      );
      return (res.rows[0] as { n: number }).n;
    });
    expect(renewed).toBe(4);
  }, 120_000);

  it('normalizes re-sightings whose finding changed since the memo was read', async () => {
    const product = await freshProduct(t, admin);
    const sarif = withTool(syntheticSarif(3), 'SynthScanner', '1.0');
    await ingest({ productId: product.id, steps: new Map(), pad: false }, sarif);
    const stored = (await db.query(
      `SELECT id, identity_hash, content_digest FROM findings WHERE product_id = $1
        ORDER BY identity_hash`,
      [product.id],
    )) as { id: string; identity_hash: string; content_digest: string }[];
    expect(stored).toHaveLength(3);
    expect(stored.every((f) => /^[0-9a-f-]{36}$/.test(f.content_digest))).toBe(true);
    const [changed, deleted, unchanged] = stored;
    // Meanwhile: another report changed one finding's content, an analyst deleted another.
    await db.query(`UPDATE findings SET content_digest = gen_random_uuid() WHERE id = $1`, [
      changed.id,
    ]);
    await db.query(`DELETE FROM findings WHERE id = $1`, [deleted.id]);

    const report = await seedReport(t, product);
    const normalized: NormalizedFinding[] = [];
    for await (const batch of readReport(bufferReportSource(sarif), 'sarif'))
      normalized.push(...batch.findings);
    const asked: string[][] = [];
    const target: BatchTarget = {
      reportId: report.id,
      productId: product.id,
      projectId: product.project_id,
      seenAt: report.created_at,
      sla: { CRITICAL: 7, HIGH: 14, MEDIUM: 30, LOW: 90, INFO: null },
    };
    const meta: BatchMeta = {
      index: 0,
      results: 3,
      format: 'sarif',
      scanner: 'SynthScanner',
      scannerVersion: '1.0',
      revision: null,
    };
    const lines = stored.map((f) => `${f.id}\t${f.content_digest}\n`).join('');
    const outcome = await new FindingsBulkWriteRepository(db).writeBatch(
      target,
      meta,
      { data: Buffer.alloc(0), rows: 0 },
      {
        staged: { data: Buffer.from(lines), rows: 3 },
        normalizeAfterAll: (ids) => {
          asked.push([...ids].sort());
          const wanted = stored.filter((f) => ids.includes(f.id)).map((f) => f.identity_hash);
          return Promise.resolve(
            stagedBatch(normalized.filter((f) => wanted.includes(f.identity))),
          );
        },
      },
    );
    expect(asked).toEqual([[changed.id, deleted.id].sort()]);
    expect(outcome).toEqual({ kind: 'written', counts: { new: 1, updated: 2, renewed: 0 } });
    const after = (await db.query(
      `SELECT id, identity_hash, content_digest, last_report_id FROM findings
        WHERE product_id = $1 ORDER BY identity_hash`,
      [product.id],
    )) as { id: string; identity_hash: string; content_digest: string; last_report_id: string }[];
    expect(after.map((f) => f.identity_hash)).toEqual(stored.map((f) => f.identity_hash));
    // Normalized again: the digest of this sighting; the deleted finding is back (a new row).
    expect(after.map((f) => f.content_digest)).toEqual(stored.map((f) => f.content_digest));
    expect(after.every((f) => f.last_report_id === report.id)).toBe(true);
    expect(after.find((f) => f.identity_hash === unchanged.identity_hash)?.id).toBe(unchanged.id);
    expect(after.find((f) => f.identity_hash === deleted.identity_hash)?.id).not.toBe(deleted.id);
  });

  it('reads only memo-able findings, and none when the product has more than the report could hold', async () => {
    const product = await freshProduct(t, admin);
    await ingest({ productId: product.id, steps: new Map(), pad: false }, syntheticSarif(4));
    const stored = (await db.query(
      `SELECT id, content_digest FROM findings WHERE product_id = $1 ORDER BY id`,
      [product.id],
    )) as { id: string; content_digest: string }[];
    const [a, b, withEntry, withoutDigest] = stored;
    // A stored `sources` entry for the latest scanner (the upsert would rewrite it), and a
    // finding with no single result behind it: neither may be touched as a re-sighting.
    await db.query(
      `UPDATE findings SET sources = jsonb_build_object(scanner, '{}'::jsonb) WHERE id = $1`,
      [withEntry.id],
    );
    await db.query(`UPDATE findings SET content_digest = NULL WHERE id = $1`, [withoutDigest.id]);
    const repository = new FindingsBulkWriteRepository(db);

    const memo = await repository.loadResultMemo(product.id, 2);
    const lines = String(memo).split('\n').filter(Boolean).sort();
    expect(lines).toEqual([a, b].map((f) => `${f.id}\t${f.content_digest}`).sort());
    expect(await repository.loadResultMemo(product.id, 1)).toBeUndefined();
  });
});
