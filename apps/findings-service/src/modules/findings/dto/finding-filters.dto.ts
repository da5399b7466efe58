import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsString, IsUUID, MaxLength } from 'class-validator';
import { CommaListChecker, isUuidValue } from '../../../app/http/comma-list-filters';
import { OptionalNotNull } from '@platform/http';
import {
  FINDING_STATUS_GROUP_NAMES,
  FINDING_STATUSES,
  FindingStatusGroup,
  isFindingStatus,
} from '../finding-status';
import { FindingFilters, SEVERITIES, Severity } from '../list/finding-filters';

/** List filters (query parameters of GET /findings, `filters` of bulk-tags). Lists are comma-separated. */
export class FindingFiltersDto {
  @ApiPropertyOptional({ description: `Comma list of: ${FINDING_STATUSES.join(', ')}` })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  status?: string;

  @ApiPropertyOptional({ enum: FINDING_STATUS_GROUP_NAMES })
  @OptionalNotNull()
  @IsIn(FINDING_STATUS_GROUP_NAMES)
  status_group?: FindingStatusGroup;

  @ApiPropertyOptional({
    description: 'Comma list of CRITICAL, HIGH, MEDIUM, LOW, INFO (any case)',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  severity?: string;

  @ApiPropertyOptional({ description: 'Comma list of exact scanner names' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2000)
  scanner?: string;

  @ApiPropertyOptional({ description: 'Comma list of project ids' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  project_id?: string;

  @ApiPropertyOptional({ description: 'Comma list of product ids' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  product_id?: string;

  @ApiPropertyOptional({
    description: 'Comma list: findings carrying any of these tags (manual, report or enrichment)',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2000)
  tags?: string;

  @ApiPropertyOptional({ description: 'Comma list of CVE ids (exact)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2000)
  cve?: string;

  @ApiPropertyOptional({ description: 'Substring of the host (case-insensitive)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  host?: string;

  @ApiPropertyOptional({ description: 'Substring of the file path (case-insensitive)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1000)
  file_path?: string;

  @ApiPropertyOptional({ description: 'Full-text search: title, description, rule id' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  search?: string;

  @ApiPropertyOptional({
    description: 'Comma list of exact rule ids (a group of GET /findings/groups?by=rule)',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  rule_id?: string;

  @ApiPropertyOptional({
    description: 'One exact file path (a group of GET /findings/groups?by=file)',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  file_path_exact?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Findings this report created' })
  @OptionalNotNull()
  @IsUUID()
  first_report_id?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Findings whose latest sighting is this report (until a later one sees them)',
  })
  @OptionalNotNull()
  @IsUUID()
  last_report_id?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @OptionalNotNull()
  @IsUUID()
  assignee_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'created_at >= (inclusive)' })
  @OptionalNotNull()
  @IsISO8601()
  created_from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'created_at < (exclusive)' })
  @OptionalNotNull()
  @IsISO8601()
  created_to?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @OptionalNotNull()
  @IsISO8601()
  last_seen_from?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @OptionalNotNull()
  @IsISO8601()
  last_seen_to?: string;

  @ApiPropertyOptional({
    enum: ['exclude', 'include', 'only'],
    default: 'exclude',
    description:
      'Findings a suppression rule suppresses: left out (default), shown with the others, or alone',
  })
  @OptionalNotNull()
  @IsIn(['exclude', 'include', 'only'])
  suppression?: 'exclude' | 'include' | 'only';

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Only the findings this suppression rule suppresses',
  })
  @OptionalNotNull()
  @IsUUID()
  suppression_rule_id?: string;
}

const date = (value: string | undefined): Date | undefined =>
  value === undefined ? undefined : new Date(value);

/** Splits and checks the comma lists (400 `validation_failed` naming the field). */
export function toFindingFilters(dto: FindingFiltersDto): FindingFilters {
  const lists = new CommaListChecker();
  const isSeverity = (v: string): v is Severity => (SEVERITIES as readonly string[]).includes(v);
  const any = (v: string): v is string => v.length <= 200;
  const filters: FindingFilters = {
    statuses: lists.check(
      'status',
      dto.status,
      isFindingStatus,
      `expected ${FINDING_STATUSES.join('|')}`,
    ),
    statusGroup: dto.status_group,
    severities: lists.check(
      'severity',
      dto.severity?.toUpperCase(),
      isSeverity,
      `expected ${SEVERITIES.join('|')}`,
    ),
    scanners: lists.check('scanner', dto.scanner, any, 'too long'),
    projectIds: lists.check('project_id', dto.project_id, isUuidValue, 'not a UUID'),
    productIds: lists.check('product_id', dto.product_id, isUuidValue, 'not a UUID'),
    tags: lists.check('tags', dto.tags?.toLowerCase(), any, 'too long'),
    cves: lists.check('cve', dto.cve?.toUpperCase(), any, 'too long'),
    host: dto.host || undefined,
    filePath: dto.file_path || undefined,
    search: dto.search?.trim() || undefined,
    ruleIds: lists.check(
      'rule_id',
      dto.rule_id,
      (v: string): v is string => v.length <= 500,
      'too long',
    ),
    filePathExact: dto.file_path_exact || undefined,
    firstReportId: dto.first_report_id?.toLowerCase(),
    lastReportId: dto.last_report_id?.toLowerCase(),
    assigneeId: dto.assignee_id,
    createdFrom: date(dto.created_from),
    createdTo: date(dto.created_to),
    lastSeenFrom: date(dto.last_seen_from),
    lastSeenTo: date(dto.last_seen_to),
    suppression: dto.suppression,
    suppressionRuleId: dto.suppression_rule_id?.toLowerCase(),
  };
  lists.done();
  return filters;
}
