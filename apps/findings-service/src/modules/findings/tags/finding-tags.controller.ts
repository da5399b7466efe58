import { Body, Controller, Delete, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiErrorResponses } from '../../../app/http/api-responses';
import { API_PREFIX } from '../../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../../app/http/uuid-param';
import type { AccessContext } from '../../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../../app/access/access.decorators';
import { FindingDto } from '../dto/finding.dto';
import { BulkTagsDto, BulkTagsResultDto, FindingTagsDto } from '../dto/tags.dto';
import { toBulkTagsInput } from './bulk-tags.input';
import { FindingTagsService } from './finding-tags.service';

/** Manual tags: user tokens only (spec: keys reach only read and PATCH of findings). */
@ApiTags('findings')
@Controller(`${API_PREFIX}/findings`)
@UserOnly()
export class FindingTagsController {
  constructor(private readonly tags: FindingTagsService) {}

  @Post('bulk-tags')
  @HttpCode(200)
  @ApiDataResponse(BulkTagsResultDto)
  @ApiErrorResponses(400, 401, 403, 429)
  async bulk(
    @CurrentAccess() access: AccessContext,
    @Body() body: BulkTagsDto,
  ): Promise<BulkTagsResultDto> {
    const counts = await this.tags.bulkChange(
      access,
      toBulkTagsInput(body),
      body.add ?? [],
      body.remove ?? [],
    );
    return { matched: counts.matched, changed: counts.changed, over_limit: counts.overLimit };
  }

  @Post(':id/tags')
  @HttpCode(200)
  @ApiDataResponse(FindingDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async add(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Body() body: FindingTagsDto,
  ): Promise<FindingDto> {
    return FindingDto.from(await this.tags.add(access, id, body.tags));
  }

  @Delete(':id/tags')
  @ApiDataResponse(FindingDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async remove(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Body() body: FindingTagsDto,
  ): Promise<FindingDto> {
    return FindingDto.from(await this.tags.remove(access, id, body.tags));
  }
}
