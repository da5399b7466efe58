import { TicketsError } from '../tickets.errors';
import type { TicketProviderGateway } from '../ticket-provider.gateway';
import type { TicketStatusRepository } from '../ticket-status.repository';
import type { TicketSyncRepository, TicketToSync } from './ticket-sync.repository';
import { TicketSyncRunner } from './ticket-sync.runner';

const TICKET: TicketToSync = {
  id: '00000000-0000-4000-8000-000000000001',
  projectId: 'p',
  pluginId: 'plugin',
  taskId: '10001',
  taskKey: 'SEC-1',
  status: 'open',
  requested: '2026-11-29 20:00:00.123456+00',
  findings: ['fixed'],
};

function setUp(transition: () => Promise<unknown>) {
  const repository = {
    load: jest.fn(async () => TICKET),
    done: jest.fn(async () => undefined),
    fail: jest.fn(async () => undefined),
  };
  const gateway = {
    forProjectIfConfigured: jest.fn(async () => ({
      plugin: { id: 'plugin', catalogPluginId: 'jira' },
      settings: { syncStatusToTracker: true },
    })),
    call: jest.fn(async (_p: unknown, operation: string) => {
      if (operation === 'transition') return transition();
      if (operation === 'read-status') return { status: 'resolved', raw: 'Done' };
      return undefined;
    }),
  };
  const status = {
    transaction: jest.fn(async (work: (m: unknown) => Promise<unknown>) => work({})),
    setStatus: jest.fn(async () => ({ changed: true, from: 'open' })),
  };
  const runner = new TicketSyncRunner(
    repository as unknown as TicketSyncRepository,
    gateway as unknown as TicketProviderGateway,
    status as unknown as TicketStatusRepository,
  );
  return { runner, repository, status };
}

const providerError = (kind: string) =>
  new TicketsError('ticket_provider_error', { kind, reason: kind, problem: `HTTP for ${kind}` });

describe('TicketSyncRunner', () => {
  it('moves the task, stores the tracker’s state and clears the request with the error', async () => {
    const { runner, repository, status } = setUp(async () => undefined);
    await expect(runner.sync(TICKET.id, false)).resolves.toEqual({
      result: 'moved',
      status: 'resolved',
      commented: true,
    });
    expect(status.setStatus).toHaveBeenCalledWith(
      {},
      TICKET.id,
      'resolved',
      'Done',
      expect.objectContaining({ label: 'ticket sync (jira)' }),
    );
    expect(repository.done).toHaveBeenCalledWith(TICKET.id, TICKET.requested, true);
  });

  it('rethrows a transient failure (the queue retries) and keeps the request', async () => {
    for (const error of [
      providerError('unreachable'),
      new TicketsError('service_unavailable', { reason: 'plugin runner unavailable' }),
    ]) {
      const { runner, repository } = setUp(async () => Promise.reject(error));
      await expect(runner.sync(TICKET.id, false)).rejects.toBe(error);
      expect(repository.fail).not.toHaveBeenCalled();
      expect(repository.done).not.toHaveBeenCalled();
    }
  });

  it('records a transient failure on the last attempt, and a permanent one at once', async () => {
    const last = setUp(async () => Promise.reject(providerError('unreachable')));
    await expect(last.runner.sync(TICKET.id, true)).resolves.toMatchObject({ result: 'failed' });
    expect(last.repository.fail).toHaveBeenCalledWith(
      TICKET.id,
      TICKET.requested,
      'unreachable: HTTP for unreachable',
    );
    for (const kind of ['unauthorized', 'not-found', 'misconfigured', 'rejected']) {
      const now = setUp(async () => Promise.reject(providerError(kind)));
      await expect(now.runner.sync(TICKET.id, false)).resolves.toEqual({
        result: 'failed',
        reason: `${kind}: HTTP for ${kind}`,
      });
    }
  });

  it('does nothing without a pending request', async () => {
    const { runner, repository } = setUp(async () => undefined);
    repository.load.mockResolvedValueOnce({ ...TICKET, requested: null });
    await expect(runner.sync(TICKET.id, false)).resolves.toEqual({ result: 'nothing' });
    expect(repository.done).not.toHaveBeenCalled();
  });
});
