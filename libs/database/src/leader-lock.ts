import type { DataSource, QueryRunner } from 'typeorm';
import { advisoryLockKey, releaseAdvisoryLock } from './advisory-lock';

/**
 * Leadership among the replicas of one process kind, held as a session-level advisory lock
 * on a connection of its own: the first replica to ask leads until it releases the lock or
 * its connection ends (a crashed leader hands over by itself); the others keep asking.
 */
export class LeaderLock {
  private readonly key: string;
  private session: QueryRunner | undefined;
  private inFlight: Promise<boolean> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    readonly name: string,
  ) {
    this.key = advisoryLockKey(name);
  }

  get held(): boolean {
    return this.session !== undefined;
  }

  /**
   * True when this process leads: keeps the lock it holds, or takes it when it is free.
   * Concurrent calls share one check (one query at a time on the lock's session, and no
   * second session competing with the first for the same lock).
   */
  acquire(): Promise<boolean> {
    this.inFlight ??= this.check().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async check(): Promise<boolean> {
    if (this.session) {
      if (await this.stillConnected(this.session)) return true;
      await this.drop();
    }
    const session = this.dataSource.createQueryRunner();
    try {
      await session.connect();
      const rows: { locked: boolean }[] = await session.query(
        'SELECT pg_try_advisory_lock($1::bigint) AS locked',
        [this.key],
      );
      if (rows[0]?.locked === true) {
        this.session = session;
        return true;
      }
    } catch (error) {
      await session.release().catch(() => undefined);
      throw error;
    }
    await session.release();
    return false;
  }

  /** Gives leadership up (another replica takes it at its next `acquire`). */
  async release(): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.session = undefined;
    try {
      await releaseAdvisoryLock(session, this.key);
    } finally {
      await session.release();
    }
  }

  private async stillConnected(session: QueryRunner): Promise<boolean> {
    try {
      await session.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  private async drop(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    await session?.release().catch(() => undefined);
  }
}
