import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { FoundPersonDto, PeopleSearchQueryDto } from './dto/people-search.dto';
import { PeopleSearchService } from './people-search.service';

@ApiTags('projects')
@Controller(`${API_PREFIX}/users`)
@UserOnly()
export class PeopleSearchController {
  constructor(private readonly people: PeopleSearchService) {}

  @Get('search')
  @ApiOperation({
    summary: "Find users by name or e-mail for a project's screens",
    description:
      'scope=assignable (default): members and global admins, for analysts and admins of the project; scope=directory: every active user, for admins of the project. Prefix matches first, then by e-mail.',
  })
  @ApiDataResponse(FoundPersonDto, { isArray: true })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async search(
    @CurrentAccess() access: AccessContext,
    @Query() dto: PeopleSearchQueryDto,
  ): Promise<FoundPersonDto[]> {
    const found = await this.people.search(access, {
      projectId: dto.project_id.toLowerCase(),
      q: dto.q,
      scope: dto.scope ?? 'assignable',
      limit: dto.limit ?? 20,
    });
    return found.map((p) => FoundPersonDto.from(p));
  }
}
