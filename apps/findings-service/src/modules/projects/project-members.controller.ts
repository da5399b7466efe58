import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { AddMemberByEmailDto, MemberDto, PutMemberDto } from './dto/member.dto';
import { ProjectMembersService } from './project-members.service';

@ApiTags('projects')
@Controller(`${API_PREFIX}/projects/:id/members`)
@UserOnly()
export class ProjectMembersController {
  constructor(private readonly members: ProjectMembersService) {}

  @Get()
  @ApiDataResponse(MemberDto, { isArray: true })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async list(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
  ): Promise<MemberDto[]> {
    return (await this.members.list(access, id)).map((m) => MemberDto.from(m));
  }

  @Post()
  @HttpCode(200)
  @ApiDataResponse(MemberDto, {
    description: 'Member added or role changed, by e-mail (404 user_not_found when no user has it)',
  })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async addByEmail(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Body() body: AddMemberByEmailDto,
  ): Promise<MemberDto> {
    return MemberDto.from(await this.members.putByEmail(access, id, body.email, body.role));
  }

  @Put(':user_id')
  @ApiDataResponse(MemberDto, { description: 'Member added or role changed' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async put(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @UuidParam('user_id') userId: string,
    @Body() body: PutMemberDto,
  ): Promise<MemberDto> {
    return MemberDto.from(await this.members.put(access, id, userId, body.role));
  }

  @Delete(':user_id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Member removed' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async remove(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @UuidParam('user_id') userId: string,
  ): Promise<void> {
    await this.members.remove(access, id, userId);
  }
}
