import { Inject, Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { Clock } from '../../app/clock';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { actorOf } from '../action-log/finding-action';
import { FindingsApiError } from '../findings/findings-api.errors';
import { FindingsQueryService, targetOf } from '../findings/findings-query.service';
import { ProjectAccessService } from '../projects/project-access.service';
import { autoClosureState } from './auto-closure-state';
import { AutoClosureViewRepository } from './auto-closure-view.repository';
import { AutoClosureError } from './auto-closure.errors';
import type { FindingVerificationEntity } from './auto-closure.entities';
import type { AutoClosureViewDto, VerificationDto } from './dto/auto-closure.dto';
import { VerificationRequester } from './verification-requester.service';
import { VerificationsRepository } from './verifications.repository';

/** Verifications listed per finding (newest first). */
export const VERIFICATIONS_SHOWN = 50;

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/**
 * What the finding page shows about the automatic closure (why a finding is or is not closed),
 * and the manual re-verification of one finding.
 */
@Injectable()
export class AutoClosureViewService {
  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly findings: FindingsQueryService,
    private readonly projectAccess: ProjectAccessService,
    private readonly views: AutoClosureViewRepository,
    private readonly verifications: VerificationsRepository,
    private readonly requester: VerificationRequester,
    private readonly clock: Clock,
  ) {}

  async view(access: AccessContext, findingId: string): Promise<AutoClosureViewDto> {
    await this.findings.get(access, findingId);
    const record = await this.views.load(findingId, this.clock.now());
    if (!record) throw new FindingsApiError('finding_not_found');
    const rules = this.config.autoClosure;
    const a = record.absence;
    // The latest automatic closure counts only if it made the current `fixed` (a finding renewed
    // and then fixed by a person is not closed automatically).
    const closure =
      record.closure &&
      record.status === 'fixed' &&
      record.statusChangedAt?.getTime() === record.closure.closedAt.getTime()
        ? record.closure
        : null;
    const state = autoClosureState({
      featureEnabled: rules.enabled,
      projectEnabled: record.projectEnabled,
      status: record.status,
      lastSeenAt: record.lastSeenAt,
      absence: a,
      closedAutomatically: closure !== null,
      required: rules.consecutiveChecks,
      maxPerHour: rules.maxPerHour,
      usedThisHour: record.usedThisHour,
    });
    const counted = a !== null && state !== 'not_tracked';
    return {
      state,
      switches: { feature: rules.enabled, project: record.projectEnabled },
      required_checks: rules.consecutiveChecks,
      attempts_per_check: rules.attempts,
      consecutive_absent: counted ? a.streak : 0,
      streak_started_at: counted ? iso(a.streakStartedAt) : null,
      reports: counted ? a.checkReports : [],
      last_check: a && {
        report_id: a.lastReportId,
        result: a.lastResult,
        at: a.lastCheckAt.toISOString(),
      },
      confirmation:
        a?.confirmation && a.confirmationAt
          ? {
              result: a.confirmation,
              at: a.confirmationAt.toISOString(),
              verification_id: a.confirmationId,
            }
          : null,
      reverification_requested_at: iso(a?.requestedAt),
      closure: closure && {
        closed_at: closure.closedAt.toISOString(),
        evidence: closure.evidence,
      },
      max_per_hour: rules.maxPerHour,
      closed_last_hour: record.usedThisHour,
      last_product_check: record.lastProductCheck && {
        report_id: record.lastProductCheck.reportId,
        state: record.lastProductCheck.state,
        reason: record.lastProductCheck.reason,
        finished_at: iso(record.lastProductCheck.finishedAt),
      },
    };
  }

  async verificationsOf(access: AccessContext, findingId: string): Promise<VerificationDto[]> {
    await this.findings.get(access, findingId);
    return (await this.verifications.listForFinding(findingId, VERIFICATIONS_SHOWN)).map(
      verificationDto,
    );
  }

  /**
   * Asks the project's scanner to re-verify the finding (`write_findings` on it, user token).
   * The request is stored either way; a delivery failure shows as `failed` with its reason.
   */
  async reverify(access: AccessContext, findingId: string): Promise<VerificationDto> {
    const finding = await this.findings.get(access, findingId);
    this.projectAccess.require(
      access,
      'write_findings',
      targetOf(finding),
      () => new FindingsApiError('finding_not_found'),
    );
    const sent = await this.requester.requestManual(finding.projectId, findingId, actorOf(access));
    if (sent.failure === 'no_endpoint') {
      throw new AutoClosureError('verification_endpoint_missing', {
        project_id: finding.projectId,
      });
    }
    const [latest] = await this.verifications.listForFinding(findingId, 1);
    if (!latest) {
      throw new AutoClosureError('reverification_unavailable', { reason: 'not stored' });
    }
    return verificationDto(latest);
  }
}

export function verificationDto(v: FindingVerificationEntity): VerificationDto {
  return {
    id: v.id,
    finding_id: v.findingId,
    origin: v.origin,
    state: v.state,
    requested_by: v.requestedByLabel,
    requested_at: v.requestedAt.toISOString(),
    delivery_error: v.deliveryError,
    result: v.result,
    answered_at: iso(v.answeredAt),
    key_id: v.answeredKeyId,
    scanner: v.scanner,
    details: v.details,
  };
}
