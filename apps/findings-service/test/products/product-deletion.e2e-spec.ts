import request from 'supertest';
import { DataSource } from 'typeorm';
import { waitFor } from '@platform/testing';
import { bufferReportSource, NormalizedFinding, readReport } from '@platform/report-parsing';
import { stagedBatch } from '../../src/modules/findings/bulk-write/finding-row';
import { FindingsBulkWriteRepository } from '../../src/modules/findings/bulk-write/findings-bulk-write.repository';
import { lockProductForWrite } from '../../src/modules/findings/product-write-lock';
import { ProductsRepository } from '../../src/modules/products/products.repository';
import { bearer, createProduct } from '../support/catalog';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import { freshProduct, seedReport } from '../support/findings-seed';
import { syntheticSarif } from '../support/synthetic-sarif';

/**
 * findings.product_id has no foreign key (its per-row check cost ~10 % of a first ingest):
 * writers hold the product FOR KEY SHARE and a product deletion deletes the findings itself.
 */
let t: TestApp;
let admin: Login;
let db: DataSource;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  db = t.app.get(DataSource);
});
afterAll(() => t.close());

async function manualFinding(productId: string, host: string): Promise<string> {
  const res = await request(t.url)
    .post(`/api/v1/products/${productId}/findings`)
    .set('Authorization', `Bearer ${admin.token}`)
    .send({ title: 'Open port', severity: 'HIGH', host, port: 22, protocol: 'tcp' })
    .expect(201);
  return String(res.body.data.id);
}

async function findingsOf(productId: string): Promise<number> {
  const [row] = (await db.query(`SELECT count(*)::int AS n FROM findings WHERE product_id = $1`, [
    productId,
  ])) as { n: number }[];
  return row.n;
}

async function orphans(): Promise<number> {
  const [row] = (await db.query(
    `SELECT count(*)::int AS n FROM findings f
      WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.id = f.product_id)`,
  )) as { n: number }[];
  return row.n;
}

/** Until a session of this file's database waits for a lock another session holds. */
async function blockedOnLock(): Promise<void> {
  await waitFor(
    async () => {
      const [row] = (await db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      )) as { n: number }[];
      expect(row.n).toBeGreaterThanOrEqual(1);
    },
    { what: 'a session blocked on a lock' },
  );
}

describe('Deleting a product - its findings go with it', () => {
  it('DELETE /api/v1/products/{id} removes its findings and leaves other products alone', async () => {
    const doomed = await freshProduct(t, admin);
    const kept = await createProduct(t, bearer(admin), doomed.project_id);
    await manualFinding(doomed.id, 'a.internal');
    await manualFinding(doomed.id, 'b.internal');
    await manualFinding(kept.id, 'a.internal');

    await request(t.url)
      .delete(`/api/v1/products/${doomed.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(204);

    expect(await findingsOf(doomed.id)).toBe(0);
    expect(await findingsOf(kept.id)).toBe(1);
    expect(await orphans()).toBe(0);
  });

  it('waits for a writer holding the product, then deletes what it committed', async () => {
    const product = await freshProduct(t, admin);
    const existing = await manualFinding(product.id, 'x.internal');
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    let deleted = false;
    let deletion: Promise<void> | undefined;
    try {
      expect(await lockProductForWrite(runner.manager, product.id)).toBe(true);
      await runner.query(
        `INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
           description, severity, kind, scanner, first_seen_at, last_seen_at)
         SELECT product_id, project_id, repeat('e', 64), 'network', 'manual', 'written meanwhile',
           'd', 'LOW', 'fail', 'manual', now(), now() FROM findings WHERE id = $1`,
        [existing],
      );
      deletion = t.app
        .get(ProductsRepository)
        .delete(product.id)
        .then(() => {
          deleted = true;
        });
      await blockedOnLock();
      expect(deleted).toBe(false); // blocked by the writer's KEY SHARE lock
      await runner.commitTransaction();
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
    await deletion;

    expect(deleted).toBe(true);
    expect(await findingsOf(product.id)).toBe(0);
    expect(await orphans()).toBe(0);
  });

  it('an ingestion batch waits for a product deletion in progress, then writes nothing', async () => {
    const product = await freshProduct(t, admin);
    const report = await seedReport(t, product);
    // A valid staged row (the batch stages it before it waits for the product).
    const findings: NormalizedFinding[] = [];
    for await (const b of readReport(bufferReportSource(syntheticSarif(1)), 'sarif'))
      findings.push(...b.findings);
    const staged = stagedBatch(findings);
    expect(staged.rows).toBe(1);
    // The deletion as ProductsRepository.delete runs it, held open before its last statement.
    const deleting = db.createQueryRunner();
    await deleting.connect();
    await deleting.startTransaction();
    try {
      await deleting.query(`SELECT 1 FROM products WHERE id = $1 FOR UPDATE`, [product.id]);
      await deleting.query(`DELETE FROM findings WHERE product_id = $1`, [product.id]);
      let settled = false;
      const batch = new FindingsBulkWriteRepository(db)
        .writeBatch(
          {
            reportId: report.id,
            productId: product.id,
            projectId: product.project_id,
            seenAt: report.created_at,
            sla: { CRITICAL: 7, HIGH: 14, MEDIUM: 30, LOW: 90, INFO: null },
          },
          {
            index: 0,
            results: 1,
            format: 'sarif',
            scanner: 's',
            scannerVersion: null,
            revision: null,
          },
          staged,
        )
        .finally(() => {
          settled = true;
        });
      await blockedOnLock();
      expect(settled).toBe(false); // waiting for the product, not writing
      await deleting.query(`DELETE FROM products WHERE id = $1`, [product.id]);
      await deleting.commitTransaction();

      expect(await batch).toEqual({ kind: 'skipped' });
    } finally {
      if (deleting.isTransactionActive) await deleting.rollbackTransaction();
      await deleting.release();
    }
    expect(await findingsOf(product.id)).toBe(0);
    expect(await orphans()).toBe(0);
  });
});
