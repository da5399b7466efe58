import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PkiError, toPem, type PollOutcome } from '@platform/pki';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { AuditService, type AuditEntry } from '../audit/audit.service';
import { IssuerRegistry } from '../ca/issuer-registry';
import {
  insertCertificates,
  supersedeCertificates,
} from '../certificates/certificate-writes.repository';
import { decideRequests } from '../requests/request-writes.repository';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { ScepPendingRepository, type ClaimedScepPending } from './scep-pending.repository';
import {
  budgetExhausted,
  nextPollDelayMs,
  SCEP_CLAIM_LEASE_MS,
  SCEP_POLL_BATCH,
  SCEP_POLL_RUN_MAX,
  SCEP_RETRY_BUDGET,
  type ScepRetryBudget,
} from './scep-retry-budget';

export const SCEP_RETRY_BUDGET_EXHAUSTED = 'scep_retry_budget_exhausted';

export interface ScepPollRun {
  /** Clock of the run (tests move it forward instead of waiting). */
  now?: Date;
  budget?: ScepRetryBudget;
  /** Claim lease (default `SCEP_CLAIM_LEASE_MS`); tests shorten it to make a poll outlast it. */
  leaseMs?: number;
}

export interface ScepPollSummary {
  polled: number;
  issued: number;
  failed: number;
  pending: number;
}

/**
 * The SCEP poller (worker periodic task): claims the due `scep_pending` records, sends each
 * one CertPoll (GetCertInitial) with its transaction id through the issuer now configured
 * for the purpose, and records the answer: certificate stored and request `issued`, CA
 * refusal `failed`, anything else another poll later within the retry budget.
 */
@Injectable()
export class ScepPollerService {
  private readonly logger = new Logger('ScepPoller');

  constructor(
    private readonly pending: ScepPendingRepository,
    private readonly issuers: IssuerRegistry,
    private readonly outbox: WebhookOutbox,
    private readonly audit: AuditService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  async pollOnce(run: ScepPollRun = {}): Promise<ScepPollSummary> {
    const now = run.now ?? new Date();
    const budget = run.budget ?? SCEP_RETRY_BUDGET;
    const summary: ScepPollSummary = { polled: 0, issued: 0, failed: 0, pending: 0 };
    await this.issuers.ensureFresh();
    while (summary.polled < SCEP_POLL_RUN_MAX) {
      const leaseMs = run.leaseMs ?? SCEP_CLAIM_LEASE_MS;
      const claimed = await this.pending.claimDue(now, SCEP_POLL_BATCH, leaseMs);
      if (claimed.length === 0) break;
      for (const record of claimed) {
        summary.polled++;
        const result = await this.pollRecord(record);
        const audit: AuditEntry[] = [];
        const ended = await this.record(record, result, now, budget, audit);
        await this.audit.recordMany(audit);
        if (ended !== 'lost') summary[ended]++;
      }
    }
    return summary;
  }

  private async pollRecord(
    record: ClaimedScepPending,
  ): Promise<PollOutcome | { status: 'error'; message: string }> {
    const issuer = this.issuers.forPurpose(record.purpose);
    if (!issuer.poll) {
      return {
        status: 'error',
        message: `the issuer configured for ${record.purpose} (${issuer.kind}) cannot poll a pending SCEP request`,
      };
    }
    try {
      return await issuer.poll({
        requestId: record.requestId,
        purpose: record.purpose,
        csr: {
          der: record.csrDer,
          publicKeySpkiDer: record.publicKeySpkiDer,
          keyAlgorithm: record.keyAlgorithm,
        },
        pendingReference: record.transactionId,
        ...(record.pollState ? { pollState: record.pollState } : {}),
      });
    } catch (error) {
      if (error instanceof PkiError)
        return { status: 'error', message: `${error.code}: ${error.message}` };
      this.logger.warn({ request_id: record.requestId, err: error }, 'SCEP poll failed');
      return { status: 'error', message: 'unexpected error while polling the CA' };
    }
  }

  /** Writes one record's outcome in a transaction; returns how the record stands. */
  private record(
    record: ClaimedScepPending,
    result: PollOutcome | { status: 'error'; message: string },
    now: Date,
    budget: ScepRetryBudget,
    audit: AuditEntry[],
  ): Promise<'issued' | 'failed' | 'pending' | 'lost'> {
    return this.pending.transaction(async (em) => {
      if (!(await this.pending.stillClaimed(em, record.requestId, record.claimedUntil))) {
        return 'lost'; // the lease ran out and another poller owns the record now
      }
      const request = await this.pending.lockRequest(em, record.requestId);
      if (request?.status !== 'ca_pending') {
        // Decided elsewhere meanwhile (cancelled, superseded): nothing to poll any more.
        await this.pending.remove(em, record.requestId);
        return 'failed';
      }
      const decidedBy = request.decidedBy ?? 'system';
      if (result.status === 'issued') {
        await this.store(em, record, result, decidedBy, now);
        audit.push({
          action: 'request.scep_issued',
          actor: null,
          target: record.requestId,
          details: { serial: result.serial, transaction_id: record.transactionId },
        });
        return 'issued';
      }
      const attempts = record.attempts + 1;
      if (result.status === 'failed') {
        const why = `${result.code}: ${result.message}`;
        await this.fail(em, record, attempts, result.code, why, decidedBy, now);
        audit.push(failedAudit(record, result.code, why, attempts));
        return 'failed';
      }
      const lastError = result.status === 'error' ? result.message : null;
      if (budgetExhausted(attempts, record.createdAt, now, budget)) {
        const why = lastError ?? `the CA still answered PENDING after ${attempts} polls`;
        await this.fail(em, record, attempts, SCEP_RETRY_BUDGET_EXHAUSTED, why, decidedBy, now);
        audit.push(failedAudit(record, SCEP_RETRY_BUDGET_EXHAUSTED, why, attempts));
        return 'failed';
      }
      const pollMs = this.config.scepPollSeconds * 1000;
      const next = new Date(now.getTime() + nextPollDelayMs(attempts, pollMs, budget));
      await this.pending.reschedule(em, record.requestId, attempts, next, lastError);
      return 'pending';
    });
  }

  private async store(
    em: EntityManager,
    record: ClaimedScepPending,
    issued: Extract<PollOutcome, { status: 'issued' }>,
    decidedBy: string,
    at: Date,
  ): Promise<void> {
    const certificate = {
      serial: issued.serial,
      requestId: record.requestId,
      deviceId: record.deviceId,
      purpose: record.purpose,
      subject: record.subject,
      userIdentity: record.userIdentity,
      notBefore: issued.notBefore,
      notAfter: issued.notAfter,
      der: issued.certificateDer,
      issuerKind: record.issuerKind,
      chainPem: issued.chainDer.map((der) => toPem('CERTIFICATE', der)).join(''),
      supersededBy: null,
    };
    await supersedeCertificates(em, [certificate], at);
    await insertCertificates(em, [certificate], at);
    await decideRequests(
      em,
      [{ id: record.requestId, status: 'issued', reason: null }],
      decidedBy,
      at,
    );
    await this.pending.remove(em, record.requestId);
    await this.outbox.enqueue(em, [
      {
        type: 'certificate.issued',
        data: {
          serial: issued.serial,
          request_id: record.requestId,
          device_id: record.deviceId,
          purpose: record.purpose,
          subject: record.subject,
          user_identity: record.userIdentity,
          not_before: issued.notBefore.toISOString(),
          not_after: issued.notAfter.toISOString(),
          issuer_kind: record.issuerKind,
        },
      },
    ]);
  }

  private async fail(
    em: EntityManager,
    record: ClaimedScepPending,
    attempts: number,
    reason: string,
    lastError: string,
    decidedBy: string,
    at: Date,
  ): Promise<void> {
    await decideRequests(em, [{ id: record.requestId, status: 'failed', reason }], decidedBy, at);
    await this.pending.reschedule(em, record.requestId, attempts, null, lastError);
  }
}

function failedAudit(
  record: ClaimedScepPending,
  reason: string,
  lastError: string,
  attempts: number,
): AuditEntry {
  return {
    action: 'request.scep_failed',
    actor: null,
    target: record.requestId,
    details: { reason, last_error: lastError.slice(0, 500), attempts },
  };
}
