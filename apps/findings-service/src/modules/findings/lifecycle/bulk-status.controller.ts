import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../../app/http/api-responses';
import { API_PREFIX } from '../../../app/http/data-envelope.interceptor';
import { BulkStatusDto, BulkStatusResultDto } from '../dto/bulk-status.dto';
import { InputValidationError } from '@platform/errors';
import { GroupAxesService } from '../groups/group-axes.service';
import { toBulkTarget, type BulkTarget } from '../list/bulk-selection';
import { BulkStatusService } from './bulk-status.service';

/** Bulk status change: user tokens only (spec: bulk operations need a user token). */
@ApiTags('findings')
@Controller(`${API_PREFIX}/findings`)
@UserOnly()
export class BulkStatusController {
  constructor(
    private readonly bulk: BulkStatusService,
    private readonly groups: GroupAxesService,
  ) {}

  @Post('bulk-status')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Move a selection of findings to one state',
    description:
      'Selection as in bulk-tags (finding_ids, or q and/or filters), or `group` (a finding and an axis: its group, 404 finding_not_found when unreadable). Only findings the user may write (analyst/admin of the project) are touched; each gets its own action-log entry and remediation-clock update; a closing state closes its open deadline violations. `waiting` is refused (400 bulk_waiting_refused), `renewed` too (400 status_not_settable); risk_accepted, false_positive and wont_fix need a justification (400 justification_required); more than 100 000 findings: 422 bulk_selection_too_large. Nothing changes when the request is refused.',
  })
  @ApiDataResponse(BulkStatusResultDto)
  @ApiErrorResponses(400, 401, 403, 422, 429)
  async change(
    @CurrentAccess() access: AccessContext,
    @Body() body: BulkStatusDto,
  ): Promise<BulkStatusResultDto> {
    const counts = await this.bulk.change(access, {
      target: await this.target(access, body),
      status: body.status,
      riskAcceptedUntil:
        body.risk_accepted_until === undefined ? undefined : new Date(body.risk_accepted_until),
      justification: body.justification,
    });
    return {
      matched: counts.matched,
      changed: counts.changed,
      violations_closed: counts.violationsClosed,
    };
  }

  private async target(access: AccessContext, body: BulkStatusDto): Promise<BulkTarget> {
    if (!body.group) return toBulkTarget(body);
    if (body.finding_ids || body.q !== undefined || body.filters) {
      throw new InputValidationError([
        { field: 'group', problems: ['give group or finding_ids/q/filters, not both'] },
      ]);
    }
    return this.groups.target(access, body.group.finding_id, body.group.axis);
  }
}
