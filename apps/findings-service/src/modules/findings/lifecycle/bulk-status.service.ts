import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../../app/access/access-context';
import { Clock } from '../../../app/clock';
import { actorOf } from '../../action-log/finding-action';
import { VisibilityService } from '../../projects/visibility.service';
import type { FindingStatus } from '../finding-status';
import { FindingsApiError } from '../findings-api.errors';
import type { BulkTarget } from '../list/bulk-selection';
import { BulkStatusRepository } from './bulk-status.repository';
import { checkedJustification, planBulkTransition } from './finding-lifecycle';
import type { StatusChangeCounts } from './status-change.sql';

/** Largest number of findings one bulk status change may touch. */
export const MAX_BULK_STATUS_FINDINGS = 100_000;

export interface BulkStatusInput {
  target: BulkTarget;
  status: FindingStatus;
  riskAcceptedUntil?: Date;
  /** One reason for the whole selection, written into every changed finding's entry. */
  justification?: string;
}

/**
 * The bulk status change (user tokens only): the lifecycle checks the target state first
 * (`waiting` refused, required fields), so a refused change touches nothing; then every
 * writable finding of the selection (`write_findings` per project, as the list's visibility)
 * moves set-based, each with its own action-log entry, clock effect and violations.
 */
@Injectable()
export class BulkStatusService {
  constructor(
    private readonly bulk: BulkStatusRepository,
    private readonly visibility: VisibilityService,
    private readonly clock: Clock,
  ) {}

  async change(access: AccessContext, input: BulkStatusInput): Promise<StatusChangeCounts> {
    const now = this.clock.now();
    const plan = planBulkTransition(
      input.status,
      { riskAcceptedUntil: input.riskAcceptedUntil },
      now,
    );
    const justification = checkedJustification(
      { from: null, to: plan.to, newRiskDate: plan.to === 'risk_accepted' },
      input.justification,
    );
    const counts = await this.bulk.apply(
      this.visibility.scope(access, 'write_findings'),
      input.target,
      plan,
      actorOf(access),
      now,
      MAX_BULK_STATUS_FINDINGS,
      justification,
    );
    if (!counts) {
      throw new FindingsApiError('bulk_selection_too_large', { max: MAX_BULK_STATUS_FINDINGS });
    }
    return counts;
  }
}
