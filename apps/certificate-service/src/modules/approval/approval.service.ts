import { Injectable } from '@nestjs/common';
import { Tracing } from '@platform/tracing';
import { AuditService, type AuditEntry } from '../audit/audit.service';
import { actorLabel, mayActOnPurpose, type Actor } from '../../app/access/actor';
import { IssuanceService } from '../issuance/issuance.service';
import type { ApprovedRequest } from '../issuance/issuance.types';
import { LicenseError } from '../license/license.errors';
import { isX509Purpose } from '@platform/pki';
import { CorpOwnershipCheck, type CorpOwnershipVerdict } from '../settings/corp-ownership-check';
import { ApprovalRepository, type ApprovalCandidate } from './approval.repository';
import type { ApprovalRow } from './approval.types';
import { attestationVerdict, serviceAccountRefusal } from './service-account-checks';
import { PolicySettingsService } from '../settings/policy-settings.service';

const LICENSE_CODES = new Set(['license_limit', 'license_tamper', 'license_purpose_limit']);

/**
 * `POST /requests/approve`. People: only terminal requests are refused (plus the licence).
 * Service accounts pass attestation, purpose, corp-ownership and block checks first. Every
 * row answers; a single-request call refused by the licence raises its 402. Each call is a
 * span (`approval approve`) under the request's server span, the issuance its child.
 */
@Injectable()
export class ApprovalService {
  constructor(
    private readonly approvals: ApprovalRepository,
    private readonly issuance: IssuanceService,
    private readonly corpOwnership: CorpOwnershipCheck,
    private readonly policies: PolicySettingsService,
    private readonly audit: AuditService,
    private readonly tracing: Tracing,
  ) {}

  approve(actor: Actor, requestIds: readonly string[]): Promise<ApprovalRow[]> {
    return this.tracing.inSpan(
      'approval approve',
      { 'approval.requests': requestIds.length, 'approval.actor_kind': actor.kind },
      () => this.approveNow(actor, requestIds),
    );
  }

  private async approveNow(actor: Actor, requestIds: readonly string[]): Promise<ApprovalRow[]> {
    const ids = [...new Set(requestIds.map((id) => id.toLowerCase()))];
    const candidates = new Map((await this.approvals.candidates(ids)).map((c) => [c.id, c]));
    const refusals = new Map<string, string>();
    const eligible: ApprovalCandidate[] = [];
    for (const id of ids) {
      const c = candidates.get(id);
      const refusal = !c
        ? 'request_not_found'
        : c.status !== 'pending'
          ? 'request_not_pending'
          : !isX509Purpose(c.purpose) && c.purpose !== 'ssh'
            ? 'purpose_unsupported'
            : undefined;
      if (refusal) refusals.set(id, refusal);
      else if (c) eligible.push(c);
    }
    const approved =
      actor.kind === 'service_account'
        ? await this.serviceAccountChecks(actor, eligible, refusals)
        : eligible;
    const outcomes = await this.issuance.issue(approved.map(issuable), actorLabel(actor));
    const rows: ApprovalRow[] = ids.map((requestId) => {
      const refusal = refusals.get(requestId);
      if (refusal) return { requestId, status: 'error', error: refusal };
      const outcome = outcomes.get(requestId) ?? { status: 'error', error: 'issuance_failed' };
      return outcome.status === 'error'
        ? { requestId, status: 'error', error: outcome.error }
        : {
            requestId,
            status: outcome.status,
            ...(outcome.status === 'issued' ? { serial: outcome.serial } : {}),
          };
    });
    await this.audit.recordMany(
      rows.filter((r) => r.status !== 'error').map((r) => auditOf(actor, r, candidates)),
    );
    if (requestIds.length === 1 && rows[0].error && LICENSE_CODES.has(rows[0].error)) {
      throw new LicenseError(
        rows[0].error as 'license_limit' | 'license_tamper' | 'license_purpose_limit',
      );
    }
    return rows;
  }

  private async serviceAccountChecks(
    actor: Actor,
    eligible: readonly ApprovalCandidate[],
    refusals: Map<string, string>,
  ): Promise<ApprovalCandidate[]> {
    const corpEnabled = await this.corpOwnership.enabled();
    const attestationStep = (await this.policies.saAutoApprove()).value.attestation;
    // Corp ownership is asked only for requests whose purpose passed (the spec's order).
    const verdicts: Map<string, CorpOwnershipVerdict> = corpEnabled
      ? await this.corpOwnership.checkMany(
          eligible.filter((c) => mayActOnPurpose(actor, c.purpose)).map((c) => c.serial),
        )
      : new Map();
    const passed: ApprovalCandidate[] = [];
    for (const c of eligible) {
      const purposeAllowed = mayActOnPurpose(actor, c.purpose);
      const corp: CorpOwnershipVerdict | 'skipped' =
        corpEnabled && purposeAllowed ? (verdicts.get(c.serial) ?? 'error') : 'skipped';
      const refusal = serviceAccountRefusal({
        attestation: attestationVerdict(attestationStep, c),
        purposeAllowed,
        corpOwnership: corp,
        registeredDuringBlock: c.registeredDuringBlock,
        deviceBlocked: c.deviceBlocked,
      });
      if (refusal) refusals.set(c.id, refusal);
      else passed.push(c);
    }
    return passed;
  }
}

function issuable(c: ApprovalCandidate): ApprovedRequest {
  if (c.purpose === 'ssh') {
    return {
      requestId: c.id,
      deviceId: c.deviceId,
      identityKey: c.identityKey,
      purpose: 'ssh',
      deviceSerial: c.serial,
      owner: c.owner,
      publicKeyBlob: c.csr.der,
    };
  }
  if (!isX509Purpose(c.purpose)) throw new Error(`purpose ${c.purpose} is not X.509`);
  const keyAlgorithm = c.csr.keyAlgorithm;
  if (keyAlgorithm === 'ed25519') throw new Error('an X.509 request with an Ed25519 key');
  return {
    requestId: c.id,
    deviceId: c.deviceId,
    identityKey: c.identityKey,
    purpose: c.purpose,
    csr: { der: c.csr.der, publicKeySpkiDer: c.csr.publicKeySpkiDer, keyAlgorithm },
    subject: c.requesterKind === 'user' && c.userIdentity ? c.userIdentity : c.serial,
    userIdentity: c.userIdentity,
    upn: c.upn,
    sid: c.sid,
  };
}

function auditOf(
  actor: Actor,
  row: ApprovalRow,
  candidates: Map<string, ApprovalCandidate>,
): AuditEntry {
  const c = candidates.get(row.requestId);
  return {
    action: 'request.approve',
    actor,
    target: row.requestId,
    details: {
      serial: c?.serial,
      purpose: c?.purpose,
      status: row.status,
      certificate_serial: row.serial,
    },
  };
}
