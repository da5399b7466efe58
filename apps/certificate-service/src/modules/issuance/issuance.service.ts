import { Injectable } from '@nestjs/common';
import { Tracing } from '@platform/tracing';
import { IssuerRegistry } from '../ca/issuer-registry';
import type { SlotCandidate } from '../license/license.repository';
import { LicenseSeatsService } from '../license/license-seats.service';
import { LicenseSlotsService } from '../license/license-slots.service';
import {
  toPem,
  type CertificateIssuer,
  type IssueManyOutcome,
  type IssueRequest,
} from '@platform/pki';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { issuanceEvents } from './issuance-events';
import { elapsedMs, IssuanceTimings } from './issuance-timings';
import { insertScepPending, type NewScepPending } from '../scep/scep-pending-writes.repository';
import {
  currentCertificateKey,
  IssuanceRepository,
  type CurrentCertificate,
  type IssuanceTx,
  type NewCertificate,
  type RequestDecision,
} from './issuance.repository';
import { SshCertificateIssuer, type SshIssueOutcome } from '../ssh/ssh-certificate-issuer';
import {
  isSshIssuable,
  type ApprovedRequest,
  type IssuableRequest,
  type IssuanceOutcome,
  type SshIssuableRequest,
} from './issuance.types';

/**
 * Issues a batch of approved requests in one transaction holding the licence ledger lock:
 * claim the still-pending requests, decide device slots, sign through each purpose's issuer
 * (`issueMany`), then one INSERT for the certificates, one UPDATE for the requests and the
 * ledger rows in bulk. Concurrent approvals serialize on the ledger lock, so the slot limit
 * holds across replicas. One span per batch (`issuance issue`), never per certificate.
 */
@Injectable()
export class IssuanceService {
  constructor(
    private readonly issuance: IssuanceRepository,
    private readonly licenseSlots: LicenseSlotsService,
    private readonly seats: LicenseSeatsService,
    private readonly issuers: IssuerRegistry,
    private readonly timings: IssuanceTimings,
    private readonly ssh: SshCertificateIssuer,
    private readonly tracing: Tracing,
    private readonly outbox: WebhookOutbox,
  ) {}

  async issue(
    rows: readonly ApprovedRequest[],
    decidedBy: string,
  ): Promise<Map<string, IssuanceOutcome>> {
    if (rows.length === 0) return new Map();
    return this.tracing.inSpan('issuance issue', { 'issuance.requests': rows.length }, () =>
      this.issueNow(rows, decidedBy),
    );
  }

  private async issueNow(
    rows: readonly ApprovedRequest[],
    decidedBy: string,
  ): Promise<Map<string, IssuanceOutcome>> {
    const outcomes = new Map<string, IssuanceOutcome>();
    if (rows.length === 0) return outcomes;
    // Before the ledger lock: a profile changed through another replica is picked up here.
    await this.issuers.ensureFresh();
    const started = process.hrtime.bigint();
    let issueMs = 0;
    await this.licenseSlots.inLedgerTransaction(async (ltx) => {
      const tx = this.issuance.tx(ltx.em);
      const at = new Date();
      const claimed = await tx.claimPending(rows.map((r) => r.requestId));
      const decisions: RequestDecision[] = [];
      for (const row of rows) {
        if (!claimed.has(row.requestId))
          outcomes.set(row.requestId, { status: 'error', error: 'request_not_pending' });
      }
      const candidates = rows.filter((r) => claimed.has(r.requestId));
      const slots = await this.licenseSlots.decide(
        ltx,
        candidates.map((r) => r.identityKey),
      );
      const withSlots = candidates.filter((r) => {
        if (!slots.refused.has(r.identityKey)) return true;
        outcomes.set(r.requestId, { status: 'error', error: slots.refusal });
        return false;
      });
      const seatRefused = await this.seats.seatRefusals(ltx, withSlots);
      const admitted = withSlots.filter((r) => {
        if (!seatRefused.has(r.requestId)) return true;
        outcomes.set(r.requestId, { status: 'error', error: 'license_purpose_limit' });
        return false;
      });
      const x509 = admitted.filter((r): r is IssuableRequest => !isSshIssuable(r));
      const ssh = admitted.filter(isSshIssuable);
      const signStarted = process.hrtime.bigint();
      const results = await this.signAll(x509, await tx.currentCertificates(x509));
      // SSH certificates: signed and inserted (one multi-row INSERT) in this transaction.
      const sshResults = await this.ssh.issue(ltx.em, ssh, at);
      issueMs = elapsedMs(signStarted);
      const pending: NewScepPending[] = [];
      const certificates = this.collect(x509, results, outcomes, decisions, pending);
      const sshIssued = this.collectSsh(ssh, sshResults, outcomes, decisions);
      await this.persist(tx, certificates, decisions, decidedBy, at);
      // SCEP pending records commit with the `ca_pending` decisions (scep module's write).
      await insertScepPending(ltx.em, pending, at);
      // Webhook outbox rows commit with the issuance or not at all (one INSERT per batch).
      await this.outbox.enqueue(
        ltx.em,
        issuanceEvents(admitted, outcomes, certificates, decidedBy),
      );
      const counted: SlotCandidate[] = admitted
        .filter((r) => outcomes.get(r.requestId)?.status !== 'error')
        .map((r) => ({ identityKey: r.identityKey, deviceId: r.deviceId }));
      await slots.commit(counted, at);
      this.timings.issued(certificates.length + sshIssued);
    });
    this.timings.add('issueMs', issueMs);
    this.timings.add('databaseMs', elapsedMs(started) - issueMs);
    return outcomes;
  }

  /**
   * One `issueMany` per issuer (purposes may use different issuers, two purposes two EST
   * servers of the same kind). A device holding a current certificate of the purpose from an
   * issuer of the same kind renews it (`renewalOf`: EST `simplereenroll`).
   */
  private async signAll(
    admitted: readonly IssuableRequest[],
    current: ReadonlyMap<string, CurrentCertificate>,
  ): Promise<Map<string, IssueManyOutcome & { issuerKind: string }>> {
    const byIssuer = new Map<
      CertificateIssuer,
      { kind: string; requests: IssueRequest[]; issuer: CertificateIssuer }
    >();
    for (const row of admitted) {
      const issuer = this.issuers.forPurpose(row.purpose);
      const group = byIssuer.get(issuer) ?? { kind: issuer.kind, requests: [], issuer };
      const held = current.get(currentCertificateKey(row));
      group.requests.push({
        requestId: row.requestId,
        purpose: row.purpose,
        csr: row.csr,
        subjectCommonName: row.subject,
        ...(row.upn ? { userPrincipalName: row.upn } : {}),
        ...(row.sid ? { sid: row.sid } : {}),
        ...(held?.issuerKind === issuer.kind ? { renewalOf: held.serial } : {}),
      });
      byIssuer.set(issuer, group);
    }
    const results = new Map<string, IssueManyOutcome & { issuerKind: string }>();
    for (const group of byIssuer.values()) {
      for (const outcome of await group.issuer.issueMany(group.requests)) {
        results.set(outcome.requestId, { ...outcome, issuerKind: group.kind });
      }
    }
    return results;
  }

  private collect(
    admitted: readonly IssuableRequest[],
    results: Map<string, IssueManyOutcome & { issuerKind: string }>,
    outcomes: Map<string, IssuanceOutcome>,
    decisions: RequestDecision[],
    pending: NewScepPending[],
  ): NewCertificate[] {
    const certificates: NewCertificate[] = [];
    for (const row of admitted) {
      const result = results.get(row.requestId);
      if (!result || result.status === 'error') {
        const code = result?.status === 'error' ? result.code : 'issuance_failed';
        outcomes.set(row.requestId, { status: 'error', error: code });
        decisions.push({ id: row.requestId, status: 'failed', reason: code });
      } else if (result.status === 'pending') {
        outcomes.set(row.requestId, { status: 'ca_pending' });
        decisions.push({ id: row.requestId, status: 'ca_pending', reason: null });
        pending.push({
          requestId: row.requestId,
          transactionId: result.pendingReference,
          issuerKind: result.issuerKind,
          pollState: result.pollState ?? null,
          deviceId: row.deviceId,
          purpose: row.purpose,
          subject: row.subject,
          userIdentity: row.userIdentity,
        });
      } else {
        outcomes.set(row.requestId, { status: 'issued', serial: result.serial });
        decisions.push({ id: row.requestId, status: 'issued', reason: null });
        certificates.push({
          serial: result.serial,
          requestId: row.requestId,
          deviceId: row.deviceId,
          purpose: row.purpose,
          subject: row.subject,
          userIdentity: row.userIdentity,
          notBefore: result.notBefore,
          notAfter: result.notAfter,
          der: result.certificateDer,
          issuerKind: result.issuerKind,
          // An external issuer's chain is kept with the certificate (bundles, agents).
          chainPem:
            result.issuerKind === 'built_in'
              ? null
              : result.chainDer.map((der) => toPem('CERTIFICATE', der)).join(''),
          supersededBy: null,
        });
      }
    }
    return certificates;
  }

  /** Outcomes and decisions of the SSH rows; a row kept pending gets no decision. */
  private collectSsh(
    rows: readonly SshIssuableRequest[],
    results: Map<string, SshIssueOutcome>,
    outcomes: Map<string, IssuanceOutcome>,
    decisions: RequestDecision[],
  ): number {
    let issued = 0;
    for (const row of rows) {
      const result = results.get(row.requestId) ?? {
        status: 'error' as const,
        error: 'issuance_failed',
        keepPending: false,
      };
      if (result.status === 'issued') {
        issued++;
        outcomes.set(row.requestId, { status: 'issued', serial: result.serial });
        decisions.push({ id: row.requestId, status: 'issued', reason: null });
      } else {
        outcomes.set(row.requestId, { status: 'error', error: result.error });
        if (!result.keepPending) {
          decisions.push({ id: row.requestId, status: 'failed', reason: result.error });
        }
      }
    }
    return issued;
  }

  /**
   * Renewal: the newest certificate of each device+purpose(+user) supersedes the previous
   * active one (not revoked; it stays valid until it expires or is revoked explicitly).
   */
  private async persist(
    tx: IssuanceTx,
    certificates: NewCertificate[],
    decisions: readonly RequestDecision[],
    decidedBy: string,
    at: Date,
  ): Promise<void> {
    const latest = new Map<string, NewCertificate>();
    for (const cert of certificates) {
      const key = `${cert.deviceId}|${cert.purpose}|${cert.userIdentity ?? ''}`;
      const previous = latest.get(key);
      if (previous) previous.supersededBy = cert.serial;
      latest.set(key, cert);
    }
    await tx.supersede([...latest.values()], at);
    await tx.insertCertificates(certificates, at);
    await tx.decideRequests(decisions, decidedBy, at);
  }
}
