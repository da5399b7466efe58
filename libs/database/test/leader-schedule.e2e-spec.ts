import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, LeaderLock, LeaderSchedule, type PeriodicTask } from '../src';
import { createScratchDatabase } from './scratch-database';

const LOCK = 'dblib-e2e-leader';

describe('Leader lock - replicas of one worker against one database (real PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  const sources: DataSource[] = [];

  async function replica(name: string): Promise<DataSource> {
    const source = new DataSource(
      buildDataSourceOptions({ url: db.url, entities: [], migrations: [], applicationName: name }),
    );
    sources.push(source);
    return source.initialize();
  }

  function countingTask(): PeriodicTask & { runs: number } {
    return {
      name: 'count',
      everyMs: 60_000,
      runs: 0,
      async run() {
        this.runs += 1;
      },
    };
  }

  const quiet = { log: () => undefined, error: () => undefined };

  beforeEach(async () => {
    db = await createScratchDatabase();
  });
  afterEach(async () => {
    await Promise.all(sources.splice(0).map((s) => (s.isInitialized ? s.destroy() : undefined)));
    await db.drop();
  });

  it('lets one replica lead until it releases; then another leads', async () => {
    const a = new LeaderLock(await replica('leader-a'), LOCK);
    const b = new LeaderLock(await replica('leader-b'), LOCK);
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    expect(await a.acquire()).toBe(true);
    await a.release();
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);
    await b.release();
  });

  it('answers concurrent acquires of one replica alike, with one session and no overlapping query', async () => {
    const source = await replica('leader-concurrent');
    const a = new LeaderLock(source, LOCK);
    const warnings: string[] = [];
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation((w) => {
      warnings.push(String(w));
    });
    try {
      expect(await Promise.all([a.acquire(), a.acquire(), a.acquire()])).toEqual([
        true,
        true,
        true,
      ]);
      // Held: concurrent keep-alive checks share one query on the lock's session.
      expect(await Promise.all([a.acquire(), a.acquire(), a.acquire()])).toEqual([
        true,
        true,
        true,
      ]);
    } finally {
      warn.mockRestore();
    }
    expect(warnings.filter((w) => /already executing a query/.test(w))).toEqual([]);
    const b = new LeaderLock(await replica('leader-b'), LOCK);
    expect(await b.acquire()).toBe(false);
    await a.release();
    expect(await b.acquire()).toBe(true);
    await b.release();
  });

  it('hands leadership over when the leader’s connection ends (a crashed replica)', async () => {
    const a = new LeaderLock(await replica('leader-a'), LOCK);
    const b = new LeaderLock(await replica('leader-b'), LOCK);
    expect(await a.acquire()).toBe(true);
    const admin = new Client({ connectionString: db.url });
    await admin.connect();
    try {
      // With a time-out, pg_terminate_backend waits until the backend has exited, so its
      // advisory lock is gone (without one it only signals, and the next try can still fail).
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid, 10000) FROM pg_locks
         WHERE locktype = 'advisory' AND granted AND database = (
           SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(killed.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);
    expect(a.held).toBe(false);
    await b.release();
  });

  it('runs a periodic task on the leading replica only, and on the other once it stops', async () => {
    const taskA = countingTask();
    const taskB = countingTask();
    const a = new LeaderSchedule(new LeaderLock(await replica('leader-a'), LOCK), [taskA], quiet);
    const b = new LeaderSchedule(new LeaderLock(await replica('leader-b'), LOCK), [taskB], quiet);
    for (let period = 0; period < 5; period += 1) {
      await Promise.all([a.tick(taskA), b.tick(taskB)]);
    }
    expect(taskA.runs + taskB.runs).toBe(5);
    expect(Math.min(taskA.runs, taskB.runs)).toBe(0);
    const [leader, follower, followerTask] =
      taskA.runs > 0 ? [a, b, taskB] : ([b, a, taskA] as const);
    await leader.stop();
    expect(await follower.tick(followerTask)).toBe(true);
    expect(followerTask.runs).toBe(1);
    await follower.stop();
  });

  it('logs a failed run and runs the task again at the next tick', async () => {
    const errors: string[] = [];
    let calls = 0;
    const flaky: PeriodicTask = {
      name: 'flaky task',
      everyMs: 60_000,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('first run fails');
      },
    };
    const schedule = new LeaderSchedule(new LeaderLock(await replica('leader-a'), LOCK), [flaky], {
      log: () => undefined,
      error: (m) => errors.push(m),
    });
    expect(await schedule.tick(flaky)).toBe(false);
    expect(await schedule.tick(flaky)).toBe(true);
    expect(errors).toEqual(['flaky task failed: first run fails']);
    await schedule.stop();
  });
});
