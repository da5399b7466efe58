import { Body, Controller, Delete, Get, HttpCode, Post, Query, Res, Headers } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { AcceptsBody } from '@platform/http';
import type { FastifyReply } from 'fastify';
import type { AccessContext } from '../../app/access/access-context';
import { Access, AnyPermission, CurrentAccess } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import {
  AddScopeEntriesDto,
  ListScopeEntriesQueryDto,
  ScopeEntryDto,
  ScopeEntryPageDto,
} from './dto/scope-entry.dto';
import {
  ExportScopeQueryDto,
  FilterScopeTargetsDto,
  ScopeExportDto,
  ScopeFilterResultDto,
} from './dto/scope-perimeter.dto';
import { ScopeEntriesService } from './scope-entries.service';
import { RawBody, ScopeTargetsPipe } from './scope-target-list';

/** The q-value `accept` gives `type` (its most specific matching range), 0 when none. */
function qualityOf(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = -1;
  let quality = 0;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    best = specificity;
    quality = Number.isFinite(value) ? value : 0;
  }
  return quality;
}

/** `?format=` wins; else text when Accept prefers text/plain over application/json. */
export function exportFormat(
  format: string | undefined,
  accept: string | undefined,
): 'text' | 'json' {
  if (format === 'text' || format === 'json') return format;
  if (!accept) return 'json';
  return qualityOf(accept, 'text/plain') > qualityOf(accept, 'application/json') ? 'text' : 'json';
}

/**
 * A project's scan perimeter (docs/findings-service/scope.md): entries, the export for a
 * scanner and the filter. Reading needs any permission on the project; changing entries
 * needs `manage_scope`.
 */
@ApiTags('scope')
@Controller(`${API_PREFIX}/projects/:id/scope`)
export class ScopeController {
  constructor(private readonly entries: ScopeEntriesService) {}

  @Get()
  @AnyPermission()
  @ApiOperation({
    summary: 'The perimeter entries, oldest first',
    description:
      'Any permission on the project (a role in it, an administrator, a key with a grant covering it). Keyset paging: follow next_cursor with the same filters.',
  })
  @ApiDataResponse(ScopeEntryPageDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async list(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Query() query: ListScopeEntriesQueryDto,
  ): Promise<ScopeEntryPageDto> {
    const page = await this.entries.list(
      access,
      projectId,
      { mode: query.mode, kind: query.kind },
      { cursor: query.cursor, limit: query.limit ?? 100 },
    );
    return ScopeEntryPageDto.from(page);
  }

  @Get('export')
  @AnyPermission()
  @ApiOperation({
    summary: 'The perimeter for a scanner',
    description:
      'Any permission on the project. `?format=text` (or an Accept header preferring text/plain): text/plain, one target per line — address blocks with the excludes taken out, then names and wildcards; `&list=excludes` gives the names inside included wildcards a scanner must skip. Otherwise JSON in the data envelope with both lists and the entries.',
  })
  @ApiExtraModels(ScopeExportDto)
  @ApiResponse({
    status: 200,
    description: 'The perimeter',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['data'],
          properties: { data: { $ref: getSchemaPath(ScopeExportDto) } },
        },
      },
      'text/plain': { schema: { type: 'string', description: 'one target per line' } },
    },
  })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async export(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Query() query: ExportScopeQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const exported = await this.entries.export(access, projectId);
    if (exportFormat(query.format, accept) === 'text') {
      const lines = query.list === 'excludes' ? exported.excludes : exported.targets;
      await reply
        .status(200)
        .type('text/plain; charset=utf-8')
        .send(lines.length > 0 ? `${lines.join('\n')}\n` : '');
      return;
    }
    await reply.status(200).send({ data: ScopeExportDto.from(projectId, exported) });
  }

  @Post('filter')
  @HttpCode(200)
  @AnyPermission()
  @AcceptsBody('text/plain')
  @ApiOperation({
    summary: 'Which targets are inside the perimeter',
    description:
      'Any permission on the project. JSON `{"targets": [...]}` (at most 10 000) or text/plain, one target per line (at most 100 000, 8 MiB; blank and `#` lines skipped). Addresses, host names and URLs; each answered inside, outside or invalid with a reason.',
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: { $ref: getSchemaPath(FilterScopeTargetsDto) } },
        'text/plain': { schema: { type: 'string', description: 'one target per line' } },
      },
    },
  })
  @ApiExtraModels(FilterScopeTargetsDto)
  @ApiDataResponse(ScopeFilterResultDto)
  @ApiErrorResponses(400, 401, 403, 404, 413, 415, 429)
  async filter(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @RawBody(ScopeTargetsPipe) targets: string[],
  ): Promise<ScopeFilterResultDto> {
    return ScopeFilterResultDto.from(await this.entries.filter(access, projectId, targets));
  }

  @Post('entries')
  @HttpCode(201)
  @Access({ permission: 'manage_scope' })
  @ApiOperation({
    summary: 'Add entries to the perimeter',
    description:
      '`manage_scope` (project admins, administrators, keys with a manage_scope grant on the project). At most 1 000 per request; all or none: 400 names an invalid entry, 409 an entry it would duplicate or overlap.',
  })
  @ApiDataResponse(ScopeEntryDto, { status: 201, isArray: true, description: 'Entries added' })
  @ApiErrorResponses(400, 401, 403, 404, 409, 422, 429)
  async add(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Body() body: AddScopeEntriesDto,
  ): Promise<ScopeEntryDto[]> {
    const added = await this.entries.add(
      access,
      projectId,
      body.entries.map((e) => ({
        value: e.value,
        mode: e.mode ?? 'include',
        comment: e.comment?.trim() || null,
      })),
    );
    return added.map((e) => ScopeEntryDto.from(e));
  }

  @Delete('entries/:entry_id')
  @HttpCode(204)
  @Access({ permission: 'manage_scope' })
  @ApiOperation({
    summary: 'Delete a perimeter entry',
    description: '`manage_scope`. A proposal the entry came from keeps its decision.',
  })
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiErrorResponses(401, 403, 404, 429)
  async delete(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('entry_id') entryId: string,
  ): Promise<void> {
    await this.entries.delete(access, projectId, entryId);
  }
}
