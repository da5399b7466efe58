import { TicketsError } from '../tickets.errors';
import type { TicketProviderGateway } from '../ticket-provider.gateway';
import type { TicketsRepository } from '../tickets.repository';
import type { TicketBackfillsRepository } from './ticket-backfills.repository';
import {
  RATE_LIMIT_MAX_WAIT_SECONDS,
  RATE_LIMIT_RETRIES,
  TicketBackfillRunner,
} from './ticket-backfill.runner';

const JOB = {
  backfillId: 'tbf-00000000-0000-4000-8000-000000000001',
  projectId: '00000000-0000-4000-8000-0000000000aa',
  mode: 'create' as const,
  statuses: ['new'],
  severities: ['HIGH'],
};
const FINDING = {
  id: '00000000-0000-4000-8000-0000000000f1',
  projectId: JOB.projectId,
  productId: 'p',
  title: 'SQL injection',
  ticketId: null,
  witFinding: {},
};

const rateLimited = (seconds: number) =>
  new TicketsError('ticket_provider_error', {
    kind: 'unreachable',
    reason: 'unreachable',
    problem: `retry-after:${seconds}`,
  });

/** A one-finding backfill whose `create-task` answers with `creates` in turn. */
function setUp(creates: Array<() => Promise<unknown>>) {
  let row: Record<string, unknown> = {
    state: 'running',
    total: 0,
    done: 0,
    linked: 0,
    created: 0,
    skipped: 0,
    failed: 0,
    cursor: null,
  };
  let pages = 0;
  const backfills = {
    get: jest.fn(async () => row),
    remaining: jest.fn(async () => 1),
    page: jest.fn(async () => (pages++ === 0 ? [FINDING.id] : [])),
    progress: jest.fn(async () => undefined),
    finish: jest.fn(async (_id: string, state: string) => {
      row = { ...row, state };
    }),
  };
  const tickets = {
    findings: jest.fn(async () => [FINDING]),
    transaction: jest.fn(async (work: (m: unknown) => Promise<unknown>) => work({})),
    lockLabel: jest.fn(async () => undefined),
    upsertTicket: jest.fn(async () => 'ticket-1'),
    link: jest.fn(async () => undefined),
  };
  let call = 0;
  const gateway = {
    forProject: jest.fn(async () => ({
      plugin: { id: 'plugin' },
      settings: { projectId: JOB.projectId, defaultTarget: 'SEC' },
    })),
    call: jest.fn(async (_p: unknown, operation: string) => {
      if (operation === 'find-task-by-label') return null;
      const next = creates[Math.min(call++, creates.length - 1)];
      return next ? next() : undefined;
    }),
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
  return { runner, waits, tickets };
}

describe('TicketBackfillRunner and a rate-limited tracker', () => {
  const report = async () => undefined;
  const created = async () => ({ id: '10001', key: 'SEC-1', url: 'https://t/SEC-1' });

  it('waits what the tracker asked and asks again for the same finding: created, none failed', async () => {
    const { runner, waits, tickets } = setUp([
      async () => Promise.reject(rateLimited(2)),
      async () => Promise.reject(rateLimited(0)),
      created,
    ]);
    const result = await runner.run(JOB, report);
    expect(result).toMatchObject({ state: 'completed', created: 1, failed: 0, done: 1 });
    expect(waits).toEqual([2_000, 1_000]); // at least a second, even for "0"
    expect(tickets.upsertTicket).toHaveBeenCalledTimes(1);
  });

  it('caps a long wait, and counts the finding failed after RATE_LIMIT_RETRIES waits in a row', async () => {
    const { runner, waits } = setUp([async () => Promise.reject(rateLimited(3_600))]);
    const result = await runner.run(JOB, report);
    expect(result).toMatchObject({ state: 'completed', created: 0, failed: 1 });
    expect(waits).toHaveLength(RATE_LIMIT_RETRIES);
    expect(new Set(waits)).toEqual(new Set([RATE_LIMIT_MAX_WAIT_SECONDS * 1000]));
  });

  it('does not wait for any other provider error', async () => {
    const { runner, waits } = setUp([
      async () =>
        Promise.reject(
          new TicketsError('ticket_provider_error', {
            kind: 'unreachable',
            reason: 'unreachable',
            problem: 'connection refused',
          }),
        ),
    ]);
    const result = await runner.run(JOB, report);
    expect(result).toMatchObject({ failed: 1 });
    expect(waits).toEqual([]);
  });
});
