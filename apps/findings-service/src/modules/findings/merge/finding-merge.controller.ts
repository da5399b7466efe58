import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../../app/http/api-responses';
import { API_PREFIX } from '../../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../../app/http/uuid-param';
import { MergeFindingsDto, MergeResultDto, UnmergeResultDto } from './finding-merge.dto';
import { FindingMergeService } from './finding-merge.service';

/**
 * Manual merge and unmerge (docs/findings-service/merge.md): user tokens only (a service key
 * gets 403), `write_findings` on the findings' project, checked by the service.
 */
@ApiTags('findings')
@Controller(`${API_PREFIX}/findings`)
@UserOnly()
export class FindingMergeController {
  constructor(private readonly merges: FindingMergeService) {}

  @Post('merge')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Merge findings that are one problem into a survivor',
    description:
      'Same product only (422 merge_products_differ: identity and deduplication are per product). The survivor keeps its record and gains the sources of the others (keys `<scanner>@<finding id>`); the others point to it (merged_into_id) and leave lists, counts, deadlines, notifications and auto-closure; future reports matching their identity re-sight the survivor. Refused: the survivor among finding_ids (422 merge_into_self), an already merged finding (422 finding_already_merged), a finding with merged findings of its own (422 merge_member_has_members), an unknown or invisible id (404 finding_not_found). Writes a `merged` action-log entry on every finding involved.',
  })
  @ApiDataResponse(MergeResultDto)
  @ApiErrorResponses(400, 401, 403, 404, 422, 429)
  async merge(
    @CurrentAccess() access: AccessContext,
    @Body() body: MergeFindingsDto,
  ): Promise<MergeResultDto> {
    const result = await this.merges.merge(
      access,
      body.survivor_id.toLowerCase(),
      body.finding_ids.map((id) => id.toLowerCase()),
    );
    return {
      merge_id: result.mergeId,
      survivor_id: result.survivorId,
      merged_ids: result.mergedIds,
    };
  }

  @Post(':id/unmerge')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Undo a merge',
    description:
      'On a merged finding: detaches it from its survivor. On a survivor: detaches every finding merged into it. The detached findings are exactly as before the merge; the survivor loses the sources they brought. 422 finding_not_merged otherwise. Writes an `unmerged` action-log entry on every finding involved.',
  })
  @ApiDataResponse(UnmergeResultDto)
  @ApiErrorResponses(400, 401, 403, 404, 422, 429)
  async unmerge(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
  ): Promise<UnmergeResultDto> {
    const result = await this.merges.unmerge(access, id);
    return { survivor_id: result.survivorId, unmerged_ids: result.unmergedIds };
  }
}
