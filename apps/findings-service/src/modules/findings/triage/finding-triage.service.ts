import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../../app/access/access-context';
import { Clock } from '../../../app/clock';
import { actorOf } from '../../action-log/finding-action';
import { ProjectAccessService } from '../../projects/project-access.service';
import { VisibilityService } from '../../projects/visibility.service';
import { FindingChangesRepository } from '../finding-changes.repository';
import type { FindingView } from '../finding-view';
import { targetOf } from '../findings-query.service';
import { FindingsApiError } from '../findings-api.errors';
import { planTriage, TriagePatch } from './triage-rules';
import { FindingMergeError } from '../merge/finding-merge.errors';

const notFound = (): Error => new FindingsApiError('finding_not_found');

/** PATCH and DELETE of one finding, each with its action-log entries in one transaction. */
@Injectable()
export class FindingTriageService {
  constructor(
    private readonly changes: FindingChangesRepository,
    private readonly projectAccess: ProjectAccessService,
    private readonly visibility: VisibilityService,
    private readonly clock: Clock,
  ) {}

  /** Needs `write_findings` on the finding's product (analyst/admin role, or a key grant). */
  async update(access: AccessContext, id: string, patch: TriagePatch): Promise<FindingView> {
    const result = await this.changes.withLockedFinding(id, async (finding, tx) => {
      this.projectAccess.require(access, 'write_findings', targetOf(finding), notFound);
      // A merged finding stays as it was merged, so that an unmerge restores it exactly.
      if (finding.mergedIntoId) {
        throw new FindingMergeError('finding_already_merged', { finding_id: finding.mergedIntoId });
      }
      if (
        patch.assigneeId &&
        !(await this.changes.isAssignable(patch.assigneeId, finding.projectId))
      ) {
        throw new FindingsApiError('assignee_invalid');
      }
      const now = this.clock.now();
      const plan = planTriage(finding, patch, now);
      if (!plan.transition && plan.changes.length === 0) return finding;
      const actor = actorOf(access);
      if (plan.transition) {
        await tx.changeStatus(id, plan.transition, actor, now, plan.justification);
      }
      if (plan.changes.length > 0) {
        await tx.updateAssignment(id, plan.next, now);
        await tx.log(
          plan.changes.map((c) => ({
            findingId: id,
            projectId: finding.projectId,
            actor,
            at: now,
            ...c,
          })),
        );
      }
      return tx.reload(id);
    });
    if (!result) throw notFound();
    return result;
  }

  /** Users only (the route refuses keys): project administrators and global admins. */
  async delete(access: AccessContext, id: string): Promise<void> {
    const done = await this.changes.withLockedFinding(id, async (finding, tx) => {
      if (!this.visibility.canSee(access, targetOf(finding))) throw notFound();
      if ((await this.projectAccess.roleOf(access, finding.projectId)) !== 'admin') {
        throw new FindingsApiError('access_denied');
      }
      await tx.delete(id);
      await tx.log([
        {
          findingId: id,
          projectId: finding.projectId,
          actor: actorOf(access),
          action: 'deleted',
          from: { status: finding.status, title: finding.title, product_id: finding.productId },
          to: null,
        },
      ]);
      return true;
    });
    if (!done) throw notFound();
  }
}
