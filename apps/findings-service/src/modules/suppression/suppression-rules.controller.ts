import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import {
  CreateSuppressionRuleDto,
  PreviewSuppressionRuleDto,
  SuppressionRuleActionDto,
  SuppressionRuleActionsQueryDto,
  SuppressionRuleDto,
  SuppressionRulePreviewDto,
  UpdateSuppressionRuleDto,
} from './dto/suppression-rule.dto';
import { SuppressionRulesService } from './suppression-rules.service';

const ACCESS =
  'User token only (a service key gets 403). Reading: membership in the project; changing and running: write_findings on the project (analyst and up).';

/** The five routes of "Suppression rules", the preview and the rule log (docs/findings-service/suppression.md). */
@ApiTags('suppression')
@Controller(`${API_PREFIX}/projects/:id/suppression-rules`)
@UserOnly()
export class SuppressionRulesController {
  constructor(private readonly rules: SuppressionRulesService) {}

  @Get()
  @ApiOperation({ summary: 'The project’s suppression rules, oldest first', description: ACCESS })
  @ApiDataResponse(SuppressionRuleDto, { isArray: true })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async list(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
  ): Promise<SuppressionRuleDto[]> {
    return (await this.rules.list(access, projectId)).map((r) => SuppressionRuleDto.from(r));
  }

  @Post()
  @ApiOperation({
    summary: 'Create a rule',
    description: `${ACCESS} The rule applies at once to the findings of the next uploads; accumulated findings only through a run.`,
  })
  @ApiDataResponse(SuppressionRuleDto, { status: 201 })
  @ApiErrorResponses(400, 401, 403, 404, 422, 429)
  async create(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Body() body: CreateSuppressionRuleDto,
  ): Promise<SuppressionRuleDto> {
    return SuppressionRuleDto.from(await this.rules.create(access, projectId, body));
  }

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check a rule text and count the findings it would match now; nothing is stored',
    description: ACCESS,
  })
  @ApiDataResponse(SuppressionRulePreviewDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async preview(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Body() body: PreviewSuppressionRuleDto,
  ): Promise<SuppressionRulePreviewDto> {
    const preview = await this.rules.preview(access, projectId, body.query);
    return {
      query: preview.query,
      matched: preview.matched,
      already_suppressed: preview.alreadySuppressed,
    };
  }

  @Put(':rule_id')
  @ApiOperation({
    summary: 'Change a rule',
    description: `${ACCESS} Disabling releases every finding it suppressed; a new text releases those it no longer matches.`,
  })
  @ApiDataResponse(SuppressionRuleDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async update(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('rule_id') ruleId: string,
    @Body() body: UpdateSuppressionRuleDto,
  ): Promise<SuppressionRuleDto> {
    return SuppressionRuleDto.from(await this.rules.update(access, projectId, ruleId, body));
  }

  @Delete(':rule_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a rule; its findings are released', description: ACCESS })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async remove(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('rule_id') ruleId: string,
  ): Promise<void> {
    await this.rules.delete(access, projectId, ruleId);
  }

  @Get(':rule_id/actions')
  @ApiOperation({
    summary: 'The rule’s log, oldest first: changes and runs (kept after the rule is deleted)',
    description: `${ACCESS} Keyset paging: pass the last entry's id as after.`,
  })
  @ApiDataResponse(SuppressionRuleActionDto, { isArray: true })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async actions(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('rule_id') ruleId: string,
    @Query() page: SuppressionRuleActionsQueryDto,
  ): Promise<SuppressionRuleActionDto[]> {
    const entries = await this.rules.history(access, projectId, ruleId, {
      limit: page.limit ?? 100,
      after: page.after?.toString(),
    });
    return entries.map((e) => SuppressionRuleActionDto.from(e));
  }

  @Post(':rule_id/run')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Apply the rule to the accumulated findings (background job)',
    description: `${ACCESS} Progress and the count are in the rule’s last_run (GET).`,
  })
  @ApiDataResponse(SuppressionRuleDto, { status: 202 })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429, 503)
  async run(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('rule_id') ruleId: string,
  ): Promise<SuppressionRuleDto> {
    return SuppressionRuleDto.from(await this.rules.run(access, projectId, ruleId));
  }
}
