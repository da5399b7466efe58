import type { EntityManager } from 'typeorm';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { preparedQuery } from './batch-round-trips';
import { pgText, type StagedBatch } from './finding-row';
import {
  INSERT_NEW,
  RESIGHTED_STAGE,
  STAGE,
  STAGED,
  TOUCH,
  UPSERT,
} from './findings-bulk-write.sql';
import type { BatchCounts, BatchMeta, BatchTarget, SuppressingStatements } from './batch-types';

type SuppressingStatement = SuppressingStatements['upsert'];
import { redirectMergedIdentities } from './merged-identities';

/**
 * The statements of a batch's transaction after its opening round trip (batch-round-trips.ts):
 * COPY into a staging table, the touch of unchanged re-sightings and the upsert (or, for a
 * product's first report, the plain insert) of normalized results.
 */

/** The node-postgres client under the transaction's query runner. */
export function rawClient(manager: EntityManager): PoolClient {
  const client = (manager.queryRunner as unknown as { databaseConnection?: PoolClient } | undefined)
    ?.databaseConnection;
  if (!client) throw new Error('ingestion batch without a connected query runner');
  return client;
}

/** COPY FROM STDIN of COPY text into one of the (per-connection) staging tables. */
async function copyInto(
  manager: EntityManager,
  table: string,
  columns: string,
  data: Buffer,
): Promise<void> {
  const stream = rawClient(manager).query(copyFrom(`COPY ${table} (${columns}) FROM STDIN`));
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(data);
  });
}

/** COPY of a batch's unchanged re-sightings into their staging table (see TOUCH). */
export function stageResighted(manager: EntityManager, staged: StagedBatch): Promise<void> {
  return copyInto(manager, RESIGHTED_STAGE, 'finding_id, content_digest', staged.data);
}

/** COPY of a batch's normalized rows into the staging table the upsert reads. */
export function stage(manager: EntityManager, batch: StagedBatch): Promise<void> {
  return copyInto(manager, STAGE, STAGED, batch.data);
}

/** The touch of the re-sightings staged by stageResighted. */
export async function touch(
  manager: EntityManager,
  target: BatchTarget,
  meta: BatchMeta,
): Promise<{ updated: number; renewed: number; missing: string[] }> {
  const rows = await preparedQuery<{ updated: number; renewed: number; missing: string[] }>(
    rawClient(manager),
    'findings_ingest_touch',
    TOUCH,
    [
      target.productId,
      target.projectId,
      target.seenAt,
      target.reportId,
      meta.scannerVersion === null ? null : pgText(meta.scannerVersion),
      meta.revision === null ? null : pgText(meta.revision),
    ],
  );
  return rows[0] ?? { updated: 0, renewed: 0, missing: [] };
}

export async function upsert(
  manager: EntityManager,
  target: BatchTarget,
  batch: StagedBatch,
  merged: boolean,
  /** The rows are in the staging table already (stage). */
  staged: boolean,
): Promise<BatchCounts> {
  if (!staged) await stage(manager, batch);
  if (merged) await redirectMergedIdentities(manager, target.productId, true);
  const { sla } = target;
  const slaDays = [sla.CRITICAL, sla.HIGH, sla.MEDIUM, sla.LOW, sla.INFO];
  const suppression = target.suppression?.forBatch(batch.facts);
  if (target.firstIngest?.insertOnly) {
    const inserted = await insertNew(manager, target, slaDays, suppression?.insertNew);
    if (inserted) return inserted;
  }
  const params = [
    target.productId,
    target.projectId,
    target.seenAt,
    target.reportId,
    target.seenAt.toISOString(),
    ...slaDays,
  ];
  const result = suppression
    ? await statementQuery<BatchCounts>(rawClient(manager), suppression.upsert, params)
    : await preparedQuery<BatchCounts>(
        rawClient(manager),
        'findings_ingest_upsert',
        UPSERT,
        params,
      );
  return result[0] ?? { new: 0, updated: 0, renewed: 0 };
}

/**
 * A statement with the suppression rules after `params`: prepared under its name when it has
 * one (SuppressionMatcher names a bounded number of distinct texts), unnamed otherwise.
 */
function statementQuery<Row>(
  client: PoolClient,
  statement: SuppressingStatement,
  params: unknown[],
): Promise<Row[]> {
  const values = [...params, ...statement.params];
  return statement.name
    ? preparedQuery<Row>(client, statement.name, statement.text, values)
    : client.query(statement.text, values).then((res) => res.rows as Row[]);
}

/**
 * INSERT_NEW (with the rules' variant of it when the project has rules for the batch) under a
 * savepoint; undefined (savepoint rolled back, `insertOnly` cleared) when a staged identity is
 * one the product has: the caller upserts the batch as usual.
 */
async function insertNew(
  manager: EntityManager,
  target: BatchTarget,
  slaDays: (number | null)[],
  suppressing: SuppressingStatement | undefined,
): Promise<BatchCounts | undefined> {
  const client = rawClient(manager);
  await client.query('SAVEPOINT findings_insert_new');
  try {
    const params = [target.productId, target.projectId, target.seenAt, target.reportId, ...slaDays];
    const rows = suppressing
      ? await statementQuery<BatchCounts>(client, suppressing, params)
      : await preparedQuery<BatchCounts>(client, 'findings_ingest_insert_new', INSERT_NEW, params);
    return rows[0];
  } catch (error) {
    const pg = error as { code?: string; constraint?: string };
    if (pg.code !== '23505' || pg.constraint !== 'uq_findings_product_id_identity_hash')
      throw error;
    await client.query('ROLLBACK TO SAVEPOINT findings_insert_new');
    if (target.firstIngest) target.firstIngest.insertOnly = false;
    return undefined;
  }
}
