import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiErrorResponses } from '../../../app/http/api-responses';
import { API_PREFIX } from '../../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../../app/http/uuid-param';
import type { AccessContext } from '../../../app/access/access-context';
import { Access, CurrentAccess, UserOnly } from '../../../app/access/access.decorators';
import {
  FindingCommentBodyDto,
  FindingCommentDto,
  FindingCommentsQueryDto,
} from './dto/finding-comment.dto';
import { FindingCommentsService } from './finding-comments.service';

@ApiTags('findings')
@Controller(`${API_PREFIX}/findings/:id/comments`)
export class FindingCommentsController {
  constructor(private readonly comments: FindingCommentsService) {}

  @Get()
  @Access({ permission: 'read_findings' })
  @ApiDataResponse(FindingCommentDto, { isArray: true, description: 'Oldest first' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async list(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Query() dto: FindingCommentsQueryDto,
  ): Promise<FindingCommentDto[]> {
    const page = { limit: dto.limit ?? 100, after: dto.after?.toLowerCase() };
    return (await this.comments.list(access, id, page)).map((c) => FindingCommentDto.from(c));
  }

  @Post()
  @UserOnly()
  @ApiDataResponse(FindingCommentDto, { status: 201 })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async add(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Body() dto: FindingCommentBodyDto,
  ): Promise<FindingCommentDto> {
    return FindingCommentDto.from(await this.comments.add(access, id, dto.body.trim()));
  }

  @Patch(':comment_id')
  @UserOnly()
  @ApiDataResponse(FindingCommentDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async edit(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @UuidParam('comment_id') commentId: string,
    @Body() dto: FindingCommentBodyDto,
  ): Promise<FindingCommentDto> {
    return FindingCommentDto.from(await this.comments.edit(access, id, commentId, dto.body.trim()));
  }

  @Delete(':comment_id')
  @UserOnly()
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Comment deleted' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async remove(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @UuidParam('comment_id') commentId: string,
  ): Promise<void> {
    await this.comments.remove(access, id, commentId);
  }
}
