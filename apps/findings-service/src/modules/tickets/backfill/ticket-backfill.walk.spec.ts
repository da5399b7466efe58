import { TicketsError } from '../tickets.errors';
import { providerRateLimit, type TicketProviderGateway } from '../ticket-provider.gateway';
import type { TicketsRepository } from '../tickets.repository';
import type { TicketBackfillsRepository } from './ticket-backfills.repository';
import { TICKET_BACKFILL_CONCURRENCY, TicketBackfillRunner } from './ticket-backfill.runner';
import { TrackerPacer } from './tracker-pacer';

const JOB = {
  backfillId: 'tbf-00000000-0000-4000-8000-000000000002',
  projectId: '00000000-0000-4000-8000-0000000000aa',
  mode: 'create' as const,
  statuses: ['new'],
  severities: ['HIGH'],
};

const idOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const findingOf = (id: string) => ({
  id,
  projectId: JOB.projectId,
  productId: 'p',
  title: `finding ${id}`,
  ticketId: null,
  witFinding: {},
});

const providerError = (kind: string, problem: string) =>
  new TicketsError('ticket_provider_error', { kind, reason: kind, problem });

interface Call {
  operation: string;
  findingId: string;
  eventId: string;
}

/**
 * A backfill of `count` findings (one page) whose provider answers through `answer` after a
 * few ms; records every call, and the most calls under way at once.
 */
function setUp(count: number, answer: (call: Call) => Promise<unknown>, walks = 1) {
  const ids = Array.from({ length: count }, (_, i) => idOf(i + 1));
  let row: Record<string, unknown> = {
    state: 'running',
    ...{ total: 0, done: 0, linked: 0, created: 0, skipped: 0, failed: 0, cursor: null },
  };
  let pages = 0;
  const progress: { cursor: string | null; done: number }[] = [];
  const backfills = {
    get: jest.fn(async () => row),
    remaining: jest.fn(async () => count),
    // Each of `walks` walks gets the page once (then none).
    page: jest.fn(async () => (pages++ < walks ? ids : [])),
    progress: jest.fn(async (_id: string, counts: { done: number }, cursor: string | null) => {
      progress.push({ cursor, done: counts.done });
    }),
    finish: jest.fn(async (_id: string, state: string) => {
      row = { ...row, state };
    }),
  };
  const tickets = {
    findings: jest.fn(async (wanted: string[]) => wanted.map(findingOf)),
    transaction: jest.fn(async (work: (m: unknown) => Promise<unknown>) => work({})),
    lockLabel: jest.fn(async () => undefined),
    upsertTicket: jest.fn(async () => 'ticket'),
    link: jest.fn(async () => undefined),
  };
  const calls: Call[] = [];
  const inFlight = { now: 0, most: 0 };
  const gateway = {
    forProject: jest.fn(async () => ({
      plugin: { id: 'plugin' },
      settings: { projectId: JOB.projectId, defaultTarget: 'SEC' },
    })),
    call: jest.fn(
      async (
        _p: unknown,
        operation: string,
        _payload: unknown,
        context: { findings: { id: string }[] },
        eventId: string,
      ) => {
        const call = { operation, findingId: context.findings[0]!.id, eventId };
        calls.push(call);
        inFlight.now += 1;
        inFlight.most = Math.max(inFlight.most, inFlight.now);
        try {
          await new Promise((resolve) => setTimeout(resolve, 3));
          return await answer(call);
        } finally {
          inFlight.now -= 1;
        }
      },
    ),
  };
  const runner = new TicketBackfillRunner(
    backfills as unknown as TicketBackfillsRepository,
    tickets as unknown as TicketsRepository,
    gateway as unknown as TicketProviderGateway,
  );
  const waits: number[] = [];
  runner.wait = async (ms) => {
    waits.push(ms);
  };
  return { runner, ids, calls, inFlight, waits, tickets, progress };
}

const created = async (call: Call) =>
  call.operation === 'find-task-by-label'
    ? null
    : { id: call.findingId, key: `SEC-${call.findingId.slice(-4)}`, url: 'https://t/x' };
const report = async () => undefined;

describe('TicketBackfillRunner: several findings under way', () => {
  it('walks at most TICKET_BACKFILL_CONCURRENCY findings at once, each once; the calls of a lane share one event', async () => {
    const { runner, ids, calls, inFlight, tickets, progress } = setUp(30, created);
    const result = await runner.run(JOB, report);
    expect(result).toMatchObject({ state: 'completed', done: 30, created: 30, failed: 0 });
    expect(inFlight.most).toBe(TICKET_BACKFILL_CONCURRENCY);
    expect(tickets.upsertTicket).toHaveBeenCalledTimes(30);
    const creates = calls.filter((c) => c.operation === 'create-task').map((c) => c.findingId);
    expect(creates.sort()).toEqual(ids);
    for (const id of ids) {
      const events = new Set(calls.filter((c) => c.findingId === id).map((c) => c.eventId));
      expect(events.size).toBe(1); // search and create of one finding: one event
    }
    const events = new Set(calls.map((c) => c.eventId));
    expect(events.size).toBe(TICKET_BACKFILL_CONCURRENCY);
    expect([...events].every((e) => /^ticket-backfill:[0-9a-f-]{36}$/.test(e))).toBe(true);
    expect(progress.at(-1)).toEqual({ cursor: ids.at(-1), done: 30 });
  });

  it('two walks in one process (two backfills, or a job taken over) share the TICKET_BACKFILL_CONCURRENCY slots', async () => {
    const { runner, inFlight, calls } = setUp(20, created, 2);
    const results = await Promise.all([runner.run(JOB, report), runner.run(JOB, report)]);
    // Both walked the whole page (the row here is one: the second found it completed after).
    expect(results.map((r) => r.done)).toEqual([20, 20]);
    expect(calls.filter((c) => c.operation === 'create-task')).toHaveLength(40);
    expect(inFlight.most).toBe(TICKET_BACKFILL_CONCURRENCY);
  });

  it('an error that is not the provider’s stops the page: the cursor stays before the first finding it hit', async () => {
    const { runner, ids, progress } = setUp(12, async (call) => {
      if (call.findingId === idOf(3)) throw new Error('database went away');
      return created(call);
    });
    await expect(runner.run(JOB, report)).rejects.toThrow('database went away');
    // Findings 1 and 2 are walked; 3 is not: a retried job resumes after 2, and walks 3 again.
    expect(progress.at(-1)?.cursor).toBe(ids[1]);
  });

  it('walks one finding at a time until one goes through: three unauthorized answers stop it after exactly three', async () => {
    const { runner, calls, inFlight } = setUp(40, async () => {
      throw providerError('unauthorized', 'search: HTTP 401');
    });
    const result = await runner.run(JOB, report);
    expect(result).toMatchObject({ state: 'failed', failed: 3, done: 3 });
    expect(calls).toHaveLength(3);
    expect(inFlight.most).toBe(1);
  });

  it('after a finding went through, a fatal streak across the lanes still stops the walk; the ones under way end', async () => {
    let answered = 0;
    const { runner, calls } = setUp(40, async (call) => {
      if (answered++ < 2) return created(call); // the first finding: search and create
      throw providerError('misconfigured', 'search: denied');
    });
    const result = await runner.run(JOB, report);
    expect(result).toMatchObject({ state: 'failed', created: 1 });
    expect(result.failed).toBeGreaterThanOrEqual(3);
    expect(result.failed).toBeLessThan(3 + TICKET_BACKFILL_CONCURRENCY);
    expect(calls.length).toBe(2 + result.failed);
  });

  it('a rate limit met by every lane at once is one pause of the whole walk, then the walk keeps to the rate the tracker told', async () => {
    let refused = 0;
    const { runner, waits, tickets } = setUp(8, async (call) => {
      // The first finding goes through (the lanes open); the next search of each lane finds
      // the bucket empty.
      const first = call.findingId === idOf(1);
      if (!first && call.operation === 'find-task-by-label' && refused < 4) {
        refused += 1;
        throw providerError('unreachable', 'retry-after:1 rate:10/1');
      }
      return created(call);
    });
    // Fake timers: the walk's waits, the provider's 3 ms and the pacer's clock
    // (performance.now) run on one virtual clock, so the slots are exact however loaded the
    // machine is (on real time, 30 ms of a busy CI's event-loop lag moved a slot).
    jest.useFakeTimers();
    const starts: number[] = [];
    runner.wait = async (ms) => {
      waits.push(ms);
      starts.push(performance.now() + ms);
      await new Promise((resolve) => setTimeout(resolve, ms));
    };
    try {
      const running = runner.run(JOB, report);
      await jest.runAllTimersAsync();
      const result = await running;
      expect(result).toMatchObject({ state: 'completed', created: 8, failed: 0 });
    } finally {
      jest.useRealTimers();
    }
    expect(tickets.upsertTicket).toHaveBeenCalledTimes(8);
    // One pause of the Retry-After for the four refusals (the other lanes' come while it is
    // under way), then the 14 calls left (4 searches again, 4 creates, 3 findings more) in
    // slots 100 ms apart (10/s) from the pause's end: the first at once, 13 waits.
    expect(waits[0]).toBe(1000);
    const pauseEnd = starts[0]!;
    const slots = starts.slice(1).sort((a, b) => a - b);
    expect(slots).toHaveLength(13);
    slots.forEach((slot, i) => expect(slot - pauseEnd).toBeCloseTo(100 * (i + 1), 6));
  });
});

describe('TrackerPacer (a virtual clock)', () => {
  function pacer() {
    let clock = 0;
    const starts: number[] = [];
    const waits: number[] = [];
    const p = new TrackerPacer(
      async (ms) => {
        waits.push(ms);
        await Promise.resolve();
        clock += ms;
      },
      () => clock,
    );
    const turn = async () => {
      await p.turn();
      starts.push(clock);
    };
    return { p, turn, starts, waits };
  }

  it('goes unpaced until the tracker refuses; then spaces the calls at its rate', async () => {
    const { p, turn, starts, waits } = pacer();
    for (let i = 0; i < 5; i += 1) await turn();
    expect(waits).toEqual([]);
    expect(p.perSecond).toBeNull();
    p.limited({ seconds: 1, perSecond: 20 });
    expect(p.perSecond).toBe(20);
    for (let i = 0; i < 4; i += 1) await turn();
    expect(starts.slice(5)).toEqual([1000, 1050, 1100, 1150]);
  });

  it('honours a fractional Retry-After with the rate known, at least one token of it; a whole second without', async () => {
    const known = pacer();
    known.p.limited({ seconds: 0.25, perSecond: 100 });
    await known.turn();
    expect(known.starts).toEqual([250]);
    const zero = pacer();
    zero.p.limited({ seconds: 0, perSecond: 100 });
    await zero.turn();
    expect(zero.starts).toEqual([10]);
    const unknown = pacer();
    unknown.p.limited({ seconds: 0, perSecond: null });
    await unknown.turn();
    expect(unknown.starts).toEqual([1000]);
    expect(unknown.p.perSecond).toBeNull();
  });

  it('joins refusals that end with the pause under way; a longer Retry-After extends it', async () => {
    const { p, turn, starts, waits } = pacer();
    p.limited({ seconds: 1, perSecond: null });
    p.limited({ seconds: 1, perSecond: null });
    p.limited({ seconds: 1.2, perSecond: null }); // ends 200 ms later: the same pause
    p.limited({ seconds: 3, perSecond: null }); // ends 2 s later: extended
    await Promise.all([turn(), turn()]);
    expect(waits).toEqual([1000, 2000]);
    expect(starts).toEqual([3000, 3000]);
  });

  it('reads the provider’s answer: seconds (a fraction allowed) and the tracker’s refill rate', () => {
    const limited = (problem: string) => providerRateLimit(providerError('unreachable', problem));
    expect(limited('retry-after:7')).toEqual({ seconds: 7, perSecond: null });
    expect(limited('retry-after:1 rate:100/1')).toEqual({ seconds: 1, perSecond: 100 });
    expect(limited('retry-after:0.5 rate:1/2')).toEqual({ seconds: 0.5, perSecond: 0.5 });
    expect(limited('retry-after:2 rate:0/1')).toEqual({ seconds: 2, perSecond: null });
    expect(limited('search: HTTP 503')).toBeNull();
    expect(providerRateLimit(providerError('rejected', 'retry-after:1'))).toBeNull();
  });
});
