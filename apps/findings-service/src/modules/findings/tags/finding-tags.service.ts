import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../../app/access/access-context';
import { actorOf } from '../../action-log/finding-action';
import { ProjectAccessService } from '../../projects/project-access.service';
import { VisibilityService } from '../../projects/visibility.service';
import { FindingChangesRepository } from '../finding-changes.repository';
import type { FindingView } from '../finding-view';
import { targetOf } from '../findings-query.service';
import { FindingsApiError } from '../findings-api.errors';
import type { FindingSelection } from '../list/finding-filters';
import { BulkTagCounts, BulkTagsRepository } from './bulk-tags.repository';
import { FindingMergeError } from '../merge/finding-merge.errors';
import { applyTagChange, MAX_TAGS_PER_FINDING, normalizeTags, tagAction } from './finding-tags';

/** Largest number of findings one bulk-tags call may touch. */
export const MAX_BULK_FINDINGS = 10_000;

export type BulkTagsInput = { findingIds: string[] } | { selection: FindingSelection };

/**
 * Manual tags. Changing them needs `write_findings` on the finding (analyst/admin, or a key
 * grant for single findings); bulk changes are user-only and touch only writable findings.
 */
@Injectable()
export class FindingTagsService {
  constructor(
    private readonly changes: FindingChangesRepository,
    private readonly bulk: BulkTagsRepository,
    private readonly projectAccess: ProjectAccessService,
    private readonly visibility: VisibilityService,
  ) {}

  add(access: AccessContext, id: string, tags: string[]): Promise<FindingView> {
    return this.change(access, id, normalizeTags(tags, 'tags'), []);
  }

  remove(access: AccessContext, id: string, tags: string[]): Promise<FindingView> {
    return this.change(access, id, [], normalizeTags(tags, 'tags'));
  }

  async bulkChange(
    access: AccessContext,
    input: BulkTagsInput,
    add: string[],
    remove: string[],
  ): Promise<BulkTagCounts> {
    const change = {
      add: normalizeTags(add, 'add'),
      remove: normalizeTags(remove, 'remove'),
      actor: actorOf(access),
      max: MAX_BULK_FINDINGS,
    };
    const target = 'findingIds' in input ? { ids: input.findingIds } : input;
    const counts = await this.bulk.apply(
      this.visibility.scope(access, 'write_findings'),
      target,
      change,
    );
    if (!counts) {
      throw new FindingsApiError('bulk_selection_too_large', { max: MAX_BULK_FINDINGS });
    }
    return counts;
  }

  private async change(
    access: AccessContext,
    id: string,
    add: string[],
    remove: string[],
  ): Promise<FindingView> {
    const result = await this.changes.withLockedFinding(id, async (finding, tx) => {
      this.projectAccess.require(access, 'write_findings', targetOf(finding), () => {
        return new FindingsApiError('finding_not_found');
      });
      // A merged finding stays as it was merged, so that an unmerge restores it exactly.
      if (finding.mergedIntoId) {
        throw new FindingMergeError('finding_already_merged', { finding_id: finding.mergedIntoId });
      }
      const tags = applyTagChange(finding.tags, add, remove);
      const action = tagAction(finding.tags, tags);
      if (!action) return finding;
      if (tags.length > MAX_TAGS_PER_FINDING) throw new FindingsApiError('finding_tags_limit');
      await tx.setTags(id, tags);
      await tx.log([
        {
          findingId: id,
          projectId: finding.projectId,
          actor: actorOf(access),
          action,
          from: { tags: finding.tags },
          to: { tags },
        },
      ]);
      return { ...finding, tags };
    });
    if (!result) throw new FindingsApiError('finding_not_found');
    return result;
  }
}
