import { ScepIssuer, generateScepRequester } from '@platform/pki';
import { loopbackEgressPolicy } from '@platform/pki/testing';
import { AuditService } from '../../src/modules/audit/audit.service';
import { IssuerRegistry } from '../../src/modules/ca/issuer-registry';
import { ScepPendingRepository } from '../../src/modules/scep/scep-pending.repository';
import { ScepPollerService } from '../../src/modules/scep/scep-poller.service';
import { WebhookOutbox } from '../../src/modules/webhooks/webhook-outbox';
import { sql } from '../fixtures/enroll';
import type { TestApp } from '../support/test-app';

/** One requester identity for the whole test run (the profile engineer stores it per profile). */
export const requester = generateScepRequester();

/** A ScepIssuer for `url`, loopback allowed through the guard's allowlist (guard still on). */
export function scepIssuer(url: string, challengePassword?: string): ScepIssuer {
  return new ScepIssuer(
    { url, requester, ...(challengePassword ? { challengePassword } : {}) },
    { policy: loopbackEgressPolicy() },
  );
}

/** `wifi` requests of this app go to `issuer` (IssuerRegistry.use, as the profiles will). */
export function useScep(t: TestApp, issuer: ScepIssuer | undefined): void {
  t.app.get(IssuerRegistry).use('wifi', issuer);
}

export function poller(t: TestApp): ScepPollerService {
  return t.app.get(ScepPollerService, { strict: false });
}

/** A second, independent poller instance over the same database (a second worker). */
export function secondPoller(t: TestApp): ScepPollerService {
  return new ScepPollerService(
    t.app.get(ScepPendingRepository, { strict: false }),
    t.app.get(IssuerRegistry, { strict: false }),
    t.app.get(WebhookOutbox, { strict: false }),
    t.app.get(AuditService, { strict: false }),
    t.config,
  );
}

export interface PendingRow {
  request_id: string;
  transaction_id: string;
  attempts: number;
  next_poll_at: Date | null;
  last_error: string | null;
}

export async function pendingRecord(
  t: TestApp,
  requestId: string,
): Promise<PendingRow | undefined> {
  const rows = await sql<PendingRow>(
    t,
    `SELECT request_id, transaction_id, attempts, next_poll_at, last_error
       FROM scep_pending WHERE request_id = $1`,
    [requestId],
  );
  return rows[0];
}

export async function requestState(
  t: TestApp,
  requestId: string,
): Promise<{ status: string; status_reason: string | null; certificates: number }> {
  const [row] = await sql<{ status: string; status_reason: string | null; certificates: number }>(
    t,
    `SELECT status, status_reason,
            (SELECT count(*) FROM certificates c WHERE c.request_id = r.id)::int AS certificates
       FROM certificate_requests r WHERE id = $1`,
    [requestId],
  );
  return row;
}

/** A clock `minutes` ahead (the poller takes its "now" so tests need not wait). */
export function later(minutes: number): Date {
  return new Date(Date.now() + minutes * 60_000);
}
