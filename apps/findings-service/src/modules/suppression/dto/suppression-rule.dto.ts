import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_RULE_QUERY_LENGTH } from '../suppression-query';
import { RULE_RUN_STATES } from '../suppression-rule.entity';
import { QueryInt } from '@platform/http';
import { ACTOR_TYPES } from '../../action-log/finding-action';
import type { SuppressionRule, SuppressionRuleAction } from '../suppression-rules.repository';

const QUERY_DESCRIPTION =
  'Match language: query-language field terms over scanner, rule, file_path, host, component, cve, cwe, severity, tags (docs/findings-service/suppression.md)';

export class CreateSuppressionRuleDto {
  @ApiProperty({ maxLength: 200, example: 'Vendored test fixtures' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({
    maxLength: MAX_RULE_QUERY_LENGTH,
    example: 'scanner:semgrep rule:"js/xss" file_path:tests/*',
    description: QUERY_DESCRIPTION,
  })
  @IsString()
  @MinLength(1)
  // Longer texts reach the rule check, which answers suppression_rule_invalid (too_long).
  @MaxLength(100_000)
  query!: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 2000,
    nullable: true,
    description: 'why it is suppressed',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  reason?: string | null;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** PUT: the fields given change, the others stay. */
export class UpdateSuppressionRuleDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ maxLength: MAX_RULE_QUERY_LENGTH, description: QUERY_DESCRIPTION })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100_000)
  query?: string;

  @ApiPropertyOptional({ type: String, maxLength: 2000, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  reason?: string | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class PreviewSuppressionRuleDto {
  @ApiProperty({ maxLength: MAX_RULE_QUERY_LENGTH, description: QUERY_DESCRIPTION })
  @IsString()
  @MinLength(1)
  @MaxLength(100_000)
  query!: string;
}

export class SuppressionRulePreviewDto {
  @ApiProperty({ description: 'the rule text as checked' }) query!: string;
  @ApiProperty({ description: 'findings of the project the rule matches now' }) matched!: number;
  @ApiProperty({ description: 'of those, findings a rule already suppresses (a run leaves them)' })
  already_suppressed!: number;
}

export class SuppressionRuleRunDto {
  @ApiProperty({ description: 'the run’s job id (sup-<uuid>) in the suppression-run queue' })
  job_id!: string;
  @ApiProperty({ enum: RULE_RUN_STATES }) state!: string;
  @ApiProperty({ description: 'findings of the project when the run started' }) total!: number;
  @ApiProperty({ description: 'findings walked so far' }) done!: number;
  @ApiProperty({ description: 'findings the run suppressed' }) matched!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at!: string | null;
}

export class SuppressionRuleDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: QUERY_DESCRIPTION }) query!: string;
  @ApiProperty({ type: String, nullable: true }) reason!: string | null;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) created_by!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
  @ApiProperty({ description: 'findings the rule suppresses now' }) suppressed_findings!: number;
  @ApiProperty({ type: SuppressionRuleRunDto, nullable: true, description: 'the last run' })
  last_run!: SuppressionRuleRunDto | null;

  static from(r: SuppressionRule): SuppressionRuleDto {
    const run = r.lastRun;
    return {
      id: r.id,
      project_id: r.projectId,
      name: r.name,
      query: r.query,
      reason: r.reason,
      enabled: r.enabled,
      created_by: r.createdBy,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
      suppressed_findings: r.suppressedFindings,
      last_run: run
        ? {
            job_id: run.jobId,
            state: run.state,
            total: run.total,
            done: run.done,
            matched: run.matched,
            started_at: run.startedAt?.toISOString() ?? null,
            finished_at: run.finishedAt?.toISOString() ?? null,
          }
        : null,
    };
  }
}

/** What a rule's log records (docs/findings-service/suppression.md, "Action log"). */
export const RULE_LOG_ACTIONS = [
  'created',
  'updated',
  'enabled',
  'disabled',
  'deleted',
  'run_started',
  'run_completed',
  'run_stopped',
  'run_failed',
] as const;

export class SuppressionRuleActionsQueryDto {
  @QueryInt({ min: 1, max: 1000, default: 100 })
  limit?: number;

  @QueryInt({
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    description: 'Entries after this entry id (oldest first)',
  })
  after?: number;
}

export class SuppressionRuleActorDto {
  @ApiProperty({ enum: ACTOR_TYPES, description: 'system = automatic' })
  type!: string;
  @ApiProperty({ nullable: true, type: String }) id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'e-mail, account name or mechanism' })
  label!: string | null;
}

export class SuppressionRuleActionDto {
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'uuid' }) rule_id!: string;
  @ApiProperty({ type: SuppressionRuleActorDto }) actor!: SuppressionRuleActorDto;
  @ApiProperty({ enum: RULE_LOG_ACTIONS }) action!: string;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description: 'before: the rule fields an edit changed',
  })
  from!: Record<string, unknown> | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description:
      'after: the changed fields, findings released (released), a run’s job_id, done, matched, cause',
  })
  to!: Record<string, unknown> | null;
  @ApiProperty({ format: 'date-time' }) at!: string;

  static from(a: SuppressionRuleAction): SuppressionRuleActionDto {
    return {
      id: a.id,
      rule_id: a.ruleId,
      actor: { ...a.actor },
      action: a.action,
      from: a.from,
      to: a.to,
      at: a.at.toISOString(),
    };
  }
}
