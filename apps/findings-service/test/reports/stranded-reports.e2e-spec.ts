import { fixture } from '@platform/report-parsing/testing';
import { bearer } from '../support/catalog';
import { findingsOf, withDb } from '../support/findings-db';
import { freshProduct } from '../support/findings-seed';
import { type IngestionStack, startIngestion } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { ReportQueue } from '../../src/modules/report-queue/report-queue.provider';
import {
  STRANDED_REPORT_SECONDS,
  StrandedReports,
} from '../../src/modules/report-ingestion/stranded-reports';

// An upload records its report and then adds the ingestion job; an API process killed between
// the two left a pending report that no job would ever take (seen in the replicas test, where
// an API is killed mid-upload). The leader's `report-requeue` task gives such a report its job.
let stack: IngestionStack;

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
}, 30_000);
afterAll(() => stack.close());

const queue = () => (stack.worker?.get(ReportQueue) as ReportQueue).queue;
const stranded = () => stack.worker?.get(StrandedReports) as StrandedReports;

/** Moves a report's upload back past the stranded threshold. */
async function age(id: string): Promise<void> {
  await withDb(stack.t, (db) =>
    db.query(
      `UPDATE reports SET created_at = created_at - make_interval(secs => $2) WHERE id = $1`,
      [id, STRANDED_REPORT_SECONDS + 5],
    ),
  );
}

/** An upload whose job is gone, as after an API killed between the report and its job. */
async function strandedUpload(productId: string): Promise<string> {
  await queue().pause();
  try {
    const id = await uploadReport(
      stack.t,
      bearer(stack.admin),
      productId,
      fixture('flawfinder-vulnerable.sarif'),
    );
    await (await queue().getJob(id))?.remove();
    expect(await queue().getJob(id)).toBeUndefined();
    return id;
  } finally {
    await queue().resume();
  }
}

describe('Reports left pending without an ingestion job', () => {
  it('a pending report whose job is gone gets it again and is ingested once', async () => {
    const product = await freshProduct(stack.t, stack.admin);
    const id = await strandedUpload(product.id);

    // Younger than the threshold: left alone (its upload may still be adding the job).
    await stranded().requeue();
    expect(await queue().getJob(id)).toBeUndefined();

    await age(id);
    await stranded().requeue(); // (the leader's own pass may have been first)
    const report = await waitForReport(stack.t, bearer(stack.admin), id);
    expect(report).toMatchObject({
      status: 'completed',
      counts: { new: 11, updated: 0, renewed: 0, results: 11 },
    });
    expect(await findingsOf(stack.t, product.id)).toHaveLength(11);
    // Done: nothing more to add.
    expect(await stranded().requeue()).toEqual({ readded: 0 });
  });

  it('a pending report whose job is still queued is not given a second one', async () => {
    const product = await freshProduct(stack.t, stack.admin);
    await queue().pause();
    let id: string;
    try {
      id = await uploadReport(
        stack.t,
        bearer(stack.admin),
        product.id,
        fixture('flawfinder-vulnerable.sarif'),
      );
      await age(id);
      expect(await stranded().requeue()).toEqual({ readded: 0 });
      expect((await queue().getJob(id))?.id).toBe(id);
    } finally {
      await queue().resume();
    }
    expect(await waitForReport(stack.t, bearer(stack.admin), id)).toMatchObject({
      status: 'completed',
      counts: { new: 11, results: 11 },
    });
  });
});
