import { Logger } from '@nestjs/common';
import { fixture } from '@platform/report-parsing/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { CleanupConfig } from '../../src/app/config/cleanup-config';
import { cleanupTasks } from '../../src/modules/cleanup/cleanup.tasks';
import { ReportCleanupService } from '../../src/modules/cleanup/report-cleanup.service';
import { REPORT_STORAGE, type ReportStorage } from '../../src/modules/storage/report-storage';
import { bearer } from '../support/catalog';
import { freshProduct, type Product } from '../support/findings-seed';
import { type IngestionStack, startIngestion, startWorker } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let stack: IngestionStack;
let product: Product;

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  product = await freshProduct(stack.t, stack.admin);
});
afterAll(async () => {
  await stack?.close();
});

const db = () => stack.t.app.get(DataSource);
const cleanup = () => stack.worker!.get(ReportCleanupService);
const defaults = (): CleanupConfig => stack.t.config.cleanup;
const fileOf = (key: string) => join(stack.env.storageDir, key);

/** A report row `ageMs` old (created and, unless pending, finished then) with its file. */
async function report(status: 'pending' | 'completed' | 'failed', ageMs: number) {
  const id = randomUUID();
  const key = `${id}.sarif`;
  const at = new Date(Date.now() - ageMs);
  await db().query(
    `INSERT INTO reports (id, product_id, project_id, status, file_name, storage_key, size_bytes,
       uploaded_by_kind, uploaded_by_id, created_at, updated_at, finished_at)
     SELECT $1, $2, $3, $4::varchar, 'r.sarif', $5, 3, 'user', id, $6, $6,
            CASE WHEN $4::varchar = 'pending' THEN NULL ELSE $6::timestamptz END
       FROM users ORDER BY created_at LIMIT 1`,
    [id, product.id, product.project_id, status, key, at],
  );
  storedFile(key, ageMs);
  return { id, key };
}

/** A file in report storage last modified `ageMs` ago. */
function storedFile(key: string, ageMs: number): void {
  writeFileSync(fileOf(key), '{}\n');
  const at = new Date(Date.now() - ageMs);
  utimesSync(fileOf(key), at, at);
}

async function reportExists(id: string): Promise<boolean> {
  const rows = (await db().query('SELECT 1 FROM reports WHERE id = $1', [id])) as unknown[];
  return rows.length === 1;
}

/** A refresh token of the first user, used, revoked or expired `ageMs` ago (or live). */
async function refreshToken(
  state: 'used' | 'revoked' | 'expired' | 'live',
  ageMs = 0,
): Promise<string> {
  const at = new Date(Date.now() - ageMs);
  const [row] = (await db().query(
    `INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at, used_at, revoked_at)
     SELECT id, gen_random_uuid(), $1, $2, $3, $4 FROM users ORDER BY created_at LIMIT 1
     RETURNING id`,
    [
      randomBytes(32).toString('hex'),
      state === 'expired' ? at : new Date(Date.now() + DAY),
      state === 'used' ? at : null,
      state === 'revoked' ? at : null,
    ],
  )) as { id: string }[];
  return row.id;
}

async function tokenExists(id: string): Promise<boolean> {
  const rows = (await db().query('SELECT 1 FROM refresh_tokens WHERE id = $1', [id])) as unknown[];
  return rows.length === 1;
}

async function actionLogSize(): Promise<number> {
  const [row] = (await db().query('SELECT count(*)::int AS n FROM finding_actions')) as {
    n: number;
  }[];
  return row.n;
}

describe('Cleanup - reports, their files, orphan files and refresh tokens', () => {
  it('dry run reports what is due and deletes nothing; the real run deletes exactly that', async () => {
    // A real ingested report whose findings must survive the deletion of the report.
    const uploaded = await uploadReport(
      stack.t,
      bearer(stack.admin),
      product.id,
      fixture('flawfinder-vulnerable.sarif'),
    );
    expect((await waitForReport(stack.t, bearer(stack.admin), uploaded)).status).toBe('completed');
    await db().query(`UPDATE reports SET finished_at = now() - interval '8 days' WHERE id = $1`, [
      uploaded,
    ]);
    const [{ storage_key: uploadedKey }] = (await db().query(
      'SELECT storage_key FROM reports WHERE id = $1',
      [uploaded],
    )) as { storage_key: string }[];
    const findingsBefore = (await db().query(
      'SELECT id FROM findings WHERE last_report_id = $1 ORDER BY id',
      [uploaded],
    )) as { id: string }[];
    expect(findingsBefore.length).toBeGreaterThan(0);

    const completedOld = await report('completed', 8 * DAY);
    const completedYoung = await report('completed', 6 * DAY);
    const failedOld = await report('failed', 31 * DAY);
    const failedYoung = await report('failed', 29 * DAY);
    const pendingAncient = await report('pending', 400 * DAY);
    const orphanOld = `${randomUUID()}.json`;
    const orphanYoung = `${randomUUID()}.json`;
    storedFile(orphanOld, 25 * HOUR);
    storedFile(orphanYoung, 23 * HOUR);
    const revokedOld = await refreshToken('revoked', 31 * DAY);
    const revokedYoung = await refreshToken('revoked', 29 * DAY);
    const expiredOld = await refreshToken('expired', 31 * DAY);
    // rotated (used) long ago, its family living on: due like a revoked one
    const usedOld = await refreshToken('used', 31 * DAY);
    const usedYoung = await refreshToken('used', 29 * DAY);
    const live = await refreshToken('live');
    // An action-log entry older than every retention (the log is never cleaned).
    await db().query(
      `INSERT INTO finding_actions (finding_id, project_id, actor_type, action, to_value, at)
       VALUES ($1, $2, 'system', 'created', $3, now() - interval '400 days')`,
      [findingsBefore[0].id, product.project_id, JSON.stringify({ report_id: uploaded })],
    );
    const actions = await actionLogSize();

    const dry = await cleanup().run({ ...defaults(), dryRun: true });
    expect(dry).toMatchObject({
      dryRun: true,
      reports: { completed: 2, failed: 1, pending: 0 },
      orphanFiles: 1,
      orphanBytes: 3,
      refreshTokens: 3,
    });
    expect(dry.reportBytes).toBeGreaterThan(6);
    for (const r of [uploaded, completedOld.id, failedOld.id]) {
      expect(await reportExists(r)).toBe(true);
    }
    for (const key of [uploadedKey, completedOld.key, failedOld.key, orphanOld]) {
      expect(existsSync(fileOf(key))).toBe(true);
    }
    expect(await tokenExists(revokedOld)).toBe(true);
    expect(await tokenExists(expiredOld)).toBe(true);
    expect(await tokenExists(usedOld)).toBe(true);

    const real = await cleanup().run();
    expect(real).toEqual({
      dryRun: false,
      reports: { completed: 2, failed: 1, pending: 0 },
      reportBytes: dry.reportBytes,
      reportFiles: 3,
      orphanFiles: 1,
      orphanBytes: 3,
      refreshTokens: 3,
      mailSends: 0,
      notificationDeliveries: 0,
      notifications: 0,
    });
    for (const r of [uploaded, completedOld.id, failedOld.id]) {
      expect(await reportExists(r)).toBe(false);
    }
    for (const key of [uploadedKey, completedOld.key, failedOld.key, orphanOld]) {
      expect(existsSync(fileOf(key))).toBe(false);
    }
    // Kept: younger than their retention, pending with CLEANUP_RETENTION_PENDING_DAYS=0.
    for (const kept of [completedYoung, failedYoung, pendingAncient]) {
      expect(await reportExists(kept.id)).toBe(true);
      expect(existsSync(fileOf(kept.key))).toBe(true);
    }
    expect(existsSync(fileOf(orphanYoung))).toBe(true);
    expect(await tokenExists(revokedOld)).toBe(false);
    expect(await tokenExists(expiredOld)).toBe(false);
    expect(await tokenExists(usedOld)).toBe(false);
    expect(await tokenExists(revokedYoung)).toBe(true);
    expect(await tokenExists(usedYoung)).toBe(true);
    expect(await tokenExists(live)).toBe(true);
    // The findings keep their history (report ids) and the action log is untouched.
    const findingsAfter = (await db().query(
      'SELECT id FROM findings WHERE last_report_id = $1 ORDER BY id',
      [uploaded],
    )) as { id: string }[];
    expect(findingsAfter).toEqual(findingsBefore);
    expect(await actionLogSize()).toBe(actions);

    // Nothing is due any more.
    expect(await cleanup().run()).toMatchObject({
      reports: { completed: 0, failed: 0, pending: 0 },
      orphanFiles: 0,
      refreshTokens: 0,
    });
  });

  it('deletes mail_sends records older than 7 days (dry run counts them) and keeps newer ones', async () => {
    const old = randomUUID();
    const recent = randomUUID();
    for (const [id, ageMs] of [
      [old, 8 * DAY],
      [recent, 6 * DAY],
    ] as const) {
      await db().query(
        `INSERT INTO mail_sends (event_id, installed_plugin_id, project_id, state, message_id, recipient_count, created_at, sent_at)
         VALUES ($1, $2, $3, 'sent', '<m@x.example>', 1, $4, $4)`,
        [id, randomUUID(), randomUUID(), new Date(Date.now() - ageMs)],
      );
    }
    const left = async () =>
      (
        (await db().query(`SELECT event_id FROM mail_sends WHERE event_id = ANY($1::uuid[])`, [
          [old, recent],
        ])) as { event_id: string }[]
      ).map((r) => r.event_id);
    expect(await cleanup().run({ ...defaults(), dryRun: true })).toMatchObject({ mailSends: 1 });
    expect((await left()).sort()).toEqual([old, recent].sort());
    expect(await cleanup().run()).toMatchObject({ mailSends: 1 });
    expect(await left()).toEqual([recent]);
  });

  it('deletes pending reports only when a pending retention is set', async () => {
    const pending = await report('pending', 3 * DAY);
    const recent = await report('pending', 12 * HOUR);
    // The 400-day-old pending report of the first test is due too.
    const [{ n: due }] = (await db().query(
      `SELECT count(*)::int AS n FROM reports
        WHERE status = 'pending' AND created_at < now() - interval '2 days'`,
    )) as { n: number }[];
    expect(due).toBeGreaterThanOrEqual(1);
    expect(await cleanup().run({ ...defaults(), pendingDays: 2 })).toMatchObject({
      reports: { completed: 0, failed: 0, pending: due },
      reportFiles: due,
    });
    expect(await reportExists(pending.id)).toBe(false);
    expect(existsSync(fileOf(pending.key))).toBe(false);
    expect(await reportExists(recent.id)).toBe(true);
  });

  it('removes the record before the file: a file left by a failed removal goes as an orphan', async () => {
    const old = await report('failed', 40 * DAY);
    const storage = stack.worker!.get<ReportStorage>(REPORT_STORAGE);
    const remove = jest.spyOn(storage, 'delete').mockRejectedValueOnce(new Error('EIO'));
    try {
      expect(await cleanup().run()).toMatchObject({
        reports: { completed: 0, failed: 1, pending: 0 },
        reportFiles: 0,
        orphanFiles: 1,
      });
    } finally {
      remove.mockRestore();
    }
    expect(await reportExists(old.id)).toBe(false);
    expect(existsSync(fileOf(old.key))).toBe(false);
  });

  it('runs hourly as a periodic task of the worker; CLEANUP_SCHEDULE only draws a warning at start', async () => {
    expect(cleanupTasks(cleanup()).map((t) => [t.name, t.everyMs])).toEqual([
      ['report-cleanup', HOUR],
    ]);
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const log = jest.spyOn(Logger.prototype, 'log');
    const worker = await startWorker(stack.t, {
      ...stack.env.vars,
      CLEANUP_SCHEDULE: '0 3 * * *',
    });
    try {
      expect(warn.mock.calls.map((c) => String(c[0]))).toContain(
        'CLEANUP_SCHEDULE="0 3 * * *" is obsolete and ignored: report cleanup runs hourly',
      );
      // The worker schedules it with its other periodic tasks, under the leader lock.
      expect(
        log.mock.calls
          .map((c) => String(c[0]))
          .find((line) => line.startsWith('periodic tasks, run by the leading worker:')),
      ).toContain('report-cleanup every 3600s');
    } finally {
      warn.mockRestore();
      log.mockRestore();
      await worker.close();
    }
  });
});
