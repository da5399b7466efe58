import { Injectable } from '@nestjs/common';
import { InputValidationError } from '@platform/errors';
import type { AccessContext } from '../../../app/access/access-context';
import { VisibilityService } from '../../projects/visibility.service';
import {
  FindingsQueryService,
  type FindingListInput,
  type FindingPage,
} from '../findings-query.service';
import type { BulkTarget } from '../list/bulk-selection';
import type { AxisMatch, GroupAxis } from './group-axis';
import { GROUP_AXES } from './group-axis';
import { GroupAxesRepository } from './group-axes.repository';
import { axisMatchOf } from './group-axes.sql';

export interface GroupAxisCount {
  axis: GroupAxis;
  match: AxisMatch;
  /** Members of the group, the finding included. */
  count: number;
}

/**
 * A finding's groups (docs/findings-service/groups-and-rollups.md): the findings of its own
 * project that share its package, host, CVE or rule, within what the caller may read.
 */
@Injectable()
export class GroupAxesService {
  constructor(
    private readonly findings: FindingsQueryService,
    private readonly repository: GroupAxesRepository,
    private readonly visibility: VisibilityService,
  ) {}

  /** The axes on which the finding has neighbours (404 `finding_not_found` when unreadable). */
  async axes(access: AccessContext, findingId: string): Promise<GroupAxisCount[]> {
    const finding = await this.findings.get(access, findingId);
    const counts = await this.repository.counts(this.visibility.scope(access), finding);
    const axes: GroupAxisCount[] = [];
    for (const axis of GROUP_AXES) {
      const match = axisMatchOf(finding, axis);
      const count = counts.get(axis) ?? 0;
      if (match && count > 1) axes.push({ axis, match, count });
    }
    return axes;
  }

  /** The group's members, paged as the list (the list's filters and `q` narrow it further). */
  async members(
    access: AccessContext,
    findingId: string,
    axis: GroupAxis,
    input: FindingListInput,
  ): Promise<FindingPage> {
    const filters = await this.groupFilters(access, findingId, axis);
    return this.findings.list(access, { ...input, filters: { ...input.filters, ...filters } });
  }

  /** The group as a bulk target: bulk status applies to each writable member. */
  async target(access: AccessContext, findingId: string, axis: GroupAxis): Promise<BulkTarget> {
    return { selection: { filters: await this.groupFilters(access, findingId, axis) } };
  }

  private async groupFilters(
    access: AccessContext,
    findingId: string,
    axis: GroupAxis,
  ): Promise<{ projectIds: string[]; axis: AxisMatch }> {
    const finding = await this.findings.get(access, findingId);
    const match = axisMatchOf(finding, axis);
    if (!match) {
      throw new InputValidationError([
        { field: 'axis', problems: [`the finding has no ${axis} to group by`] },
      ]);
    }
    return { projectIds: [finding.projectId], axis: match };
  }
}
