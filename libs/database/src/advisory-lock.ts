import { createHash } from 'node:crypto';
import type { QueryRunner } from 'typeorm';

/**
 * Derives the 64-bit PostgreSQL advisory lock key for a lock name: the first 8 bytes of its
 * SHA-256 as a signed bigint, returned as a decimal string (the form `pg` sends as `bigint`).
 * Stable across processes, Node versions and PostgreSQL versions (unlike `hashtext`).
 */
export function advisoryLockKey(name: string): string {
  return createHash('sha256').update(name, 'utf8').digest().readBigInt64BE(0).toString();
}

export interface AdvisoryLockWait {
  /** Give up after this many seconds; `false` is returned then. */
  waitSeconds: number;
  pollMs?: number;
  /** Called once, when the lock is found held by someone else. */
  onContended?: () => void;
}

/**
 * Takes a session-level advisory lock on the query runner's connection, polling
 * `pg_try_advisory_lock` so the wait is bounded. Returns whether the lock was taken.
 */
export async function tryAcquireAdvisoryLock(
  queryRunner: QueryRunner,
  key: string,
  wait: AdvisoryLockWait,
): Promise<boolean> {
  const deadline = Date.now() + wait.waitSeconds * 1000;
  const pollMs = wait.pollMs ?? 250;
  let contended = false;
  for (;;) {
    const rows: { locked: boolean }[] = await queryRunner.query(
      'SELECT pg_try_advisory_lock($1::bigint) AS locked',
      [key],
    );
    if (rows[0]?.locked === true) return true;
    if (!contended) {
      contended = true;
      wait.onContended?.();
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, remaining)));
  }
}

export async function releaseAdvisoryLock(queryRunner: QueryRunner, key: string): Promise<void> {
  await queryRunner.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
}
