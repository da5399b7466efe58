import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FINDING_STATUSES, FindingStatus } from '../finding-status';
import {
  FINDING_TICKET_STATUSES,
  locationLabelOf,
  ruleTitleOf,
  type FindingPerson,
  type FindingView,
} from '../finding-view';
import type { FindingAction } from '../../action-log/finding-action';
import type { FindingPage } from '../findings-query.service';
import { StatusDecisionDto } from './finding-action.dto';
import { FindingTicketDto } from './finding-ticket.dto';
import { MergedMemberDto } from '../merge/finding-merge.dto';
import type { MergedMember } from '../merge/finding-merges.repository';
import {
  CodeFlowDto,
  codeFlowDtos,
  RelatedLocationDto,
  relatedLocationDtos,
} from './finding-flows.dto';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export class FindingLocationDto {
  @ApiProperty({
    description:
      'The location in one line: path:line[-end] for code, host:port/protocol for network findings, the URL for web findings; "" when none',
    example: 'src/app/db.ts:42',
  })
  label!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) file_path!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) start_line!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) end_line!: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) snippet!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) logical_location!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) host!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) ip!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) port!: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) protocol!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) service!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) url!: string | null;
}

/** A user as the findings API names people: assignee, comment author. */
export class PersonDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'alice@example.com' }) email!: string;
  @ApiProperty({ example: 'Alice' }) display_name!: string;

  static from(p: FindingPerson): PersonDto {
    return { id: p.id, email: p.email, display_name: p.displayName };
  }
}

/** A finding as returned by the findings API. */
/** The suppression rule on a finding (docs/findings-service/suppression.md). */
export class FindingSuppressionRuleDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) suppressed_at!: string | null;
}

export class FindingDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty() project_name!: string;
  @ApiProperty({ format: 'uuid' }) product_id!: string;
  @ApiProperty() product_name!: string;
  @ApiProperty({ enum: ['code', 'web', 'network_cve', 'network'] }) identity_kind!: string;
  @ApiProperty() rule_id!: string;
  @ApiProperty({ nullable: true, type: String }) rule_name!: string | null;
  @ApiProperty({
    description:
      "Short title of the rule for lists, never the scanner's message: the report's rule short description, else its name, else rule_name, else rule_id",
  })
  rule_title!: string;
  @ApiProperty() title!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ enum: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] }) severity!: string;
  @ApiProperty({ enum: FINDING_STATUSES }) status!: FindingStatus;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) status_changed_at!:
    string | null;
  @ApiProperty({ nullable: true, type: String }) baseline_state!: string | null;
  @ApiProperty() kind!: string;
  @ApiProperty() suppressed!: boolean;
  @ApiProperty({
    type: () => FindingLocationDto,
    description:
      'file (path, lines, snippet), network (host, ip, port, protocol, service) or web (url)',
  })
  location!: FindingLocationDto;
  @ApiProperty({ nullable: true, type: String }) cve!: string | null;
  @ApiProperty({ type: [String] }) cwe!: string[];
  @ApiProperty({ nullable: true, type: String }) component!: string | null;
  @ApiProperty({ nullable: true, type: String }) component_version!: string | null;
  @ApiProperty({ nullable: true, type: Number }) score!: number | null;
  @ApiProperty({ description: 'Latest scanner (all scanners are in sources)' }) scanner!: string;
  @ApiProperty({ nullable: true, type: String }) scanner_version!: string | null;
  @ApiProperty({ nullable: true, type: String }) revision!: string | null;
  @ApiProperty({ type: [String], description: 'Manual tags' }) tags!: string[];
  @ApiProperty({ type: [String] }) report_tags!: string[];
  @ApiProperty({ type: [String] }) enrichment_tags!: string[];
  @ApiProperty({ nullable: true, type: Number }) sla_days!: number | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When the remediation clock started (taken into work); null: not started',
  })
  sla_started_at!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'Stop moment while waiting, risk_accepted or needs_review; null: not paused',
  })
  sla_paused_at!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description:
      'Remediation deadline: started + sla_days + idle time (moves by the idle time on return to work)',
  })
  sla_due_at!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) assignee_id!: string | null;
  @ApiProperty({
    nullable: true,
    type: PersonDto,
    description: 'The assignee by name and e-mail; null when unassigned (or the user was deleted)',
  })
  assignee!: PersonDto | null;
  @ApiProperty({
    nullable: true,
    type: String,
    deprecated: true,
    description:
      'The old single triage note, kept readable; the discussion is GET /findings/{id}/comments, reasons are status_decision.justification',
  })
  comment!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) risk_accepted_until!:
    string | null;
  @ApiProperty({ nullable: true, type: String }) waiting_reason!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) waiting_until!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) fingerprints!: Record<
    string,
    unknown
  >;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'One entry per scanner' })
  sources!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) first_seen_at!: string;
  @ApiProperty({ format: 'date-time' }) last_seen_at!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'key of the finding’s task in the external tracker (e.g. SEC-42); null without one',
  })
  ticket_key!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: FINDING_TICKET_STATUSES,
    description: 'state of that task as last known (open, in_progress, resolved, closed)',
  })
  ticket_status!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'address of that task' })
  ticket_url!: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'the survivor this finding was merged into (it has left lists and counts); null when not merged',
  })
  merged_into_id!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) merged_at!: string | null;
  @ApiProperty({
    type: () => FindingSuppressionRuleDto,
    nullable: true,
    description:
      'the project suppression rule that suppresses it (it has left default lists, deadlines and notifications); null when none. Not the scanner’s in-source `suppressed`',
  })
  suppression_rule!: FindingSuppressionRuleDto | null;

  static from(f: FindingView): FindingDto {
    return {
      id: f.id,
      project_id: f.projectId,
      project_name: f.projectName,
      product_id: f.productId,
      product_name: f.productName,
      identity_kind: f.identityKind,
      rule_id: f.ruleId,
      rule_name: f.ruleName,
      rule_title: ruleTitleOf(f),
      title: f.title,
      description: f.description,
      severity: f.severity,
      status: f.status,
      status_changed_at: iso(f.statusChangedAt),
      baseline_state: f.baselineState,
      kind: f.kind,
      suppressed: f.suppressed,
      location: {
        label: locationLabelOf(f),
        file_path: f.filePath,
        start_line: f.startLine,
        end_line: f.endLine,
        snippet: f.snippet,
        logical_location: f.logicalLocation,
        host: f.host,
        ip: f.ip,
        port: f.port,
        protocol: f.protocol,
        service: f.service,
        url: f.url,
      },
      cve: f.cve,
      cwe: f.cwe,
      component: f.component,
      component_version: f.componentVersion,
      score: f.score,
      scanner: f.scanner,
      scanner_version: f.scannerVersion,
      revision: f.revision,
      tags: f.tags,
      report_tags: f.reportTags,
      enrichment_tags: f.enrichmentTags,
      sla_days: f.slaDays,
      sla_started_at: iso(f.slaStartedAt),
      sla_paused_at: iso(f.slaPausedAt),
      sla_due_at: iso(f.slaDueAt),
      assignee_id: f.assigneeId,
      assignee: f.assignee ? PersonDto.from(f.assignee) : null,
      comment: f.triageComment,
      risk_accepted_until: iso(f.riskAcceptedUntil),
      waiting_reason: f.waitingReason,
      waiting_until: iso(f.waitingUntil),
      fingerprints: f.fingerprints,
      sources: f.sources,
      first_seen_at: f.firstSeenAt.toISOString(),
      last_seen_at: f.lastSeenAt.toISOString(),
      created_at: f.createdAt.toISOString(),
      updated_at: f.updatedAt.toISOString(),
      ticket_key: f.ticket?.taskKey ?? null,
      ticket_status: f.ticket?.status ?? null,
      ticket_url: f.ticket?.url ?? null,
      merged_into_id: f.mergedIntoId ?? null,
      merged_at: iso(f.mergedAt ?? null),
      suppression_rule: f.suppressionRule
        ? {
            id: f.suppressionRule.id,
            name: f.suppressionRule.name,
            suppressed_at: iso(f.suppressionRule.suppressedAt),
          }
        : null,
    };
  }
}

/** The single finding (GET one, PATCH): the record and who decided its current status. */
export class FindingDetailDto extends FindingDto {
  @ApiProperty({
    nullable: true,
    type: StatusDecisionDto,
    description:
      'The action-log entry that put the finding into its current status or last changed its date: who, when, why; null while still in the status it was created with',
  })
  status_decision!: StatusDecisionDto | null;
  @ApiProperty({
    type: [RelatedLocationDto],
    description:
      "SARIF relatedLocations of the latest sighting that had some (at most 50); the targets of the message's [text](id) links",
  })
  related_locations!: RelatedLocationDto[];
  @ApiProperty({
    type: [CodeFlowDto],
    description:
      'SARIF codeFlows (data-flow paths) of the latest sighting that had some: at most 10 flows of at most 100 steps each',
  })
  code_flows!: CodeFlowDto[];
  @ApiProperty({
    nullable: true,
    type: FindingTicketDto,
    description: 'the finding’s task in the external tracker; null without one',
  })
  ticket!: FindingTicketDto | null;
  @ApiProperty({
    type: [MergedMemberDto],
    description: 'findings merged into this one (oldest merge first, at most 500)',
  })
  merged_members!: MergedMemberDto[];

  static fromDetail(
    f: FindingView,
    decision: FindingAction | null,
    mergedMembers: MergedMember[] = [],
  ): FindingDetailDto {
    return {
      ...FindingDto.from(f),
      status_decision: StatusDecisionDto.from(decision),
      related_locations: relatedLocationDtos(f.relatedLocations),
      code_flows: codeFlowDtos(f.codeFlows),
      ticket: FindingTicketDto.from(f.ticket),
      merged_members: mergedMembers.map((m) => MergedMemberDto.from(m)),
    };
  }
}

/** One page of the list: `next_cursor` is null on the last page. */
export class FindingPageDto {
  @ApiProperty({ type: [FindingDto] }) items!: FindingDto[];
  @ApiProperty({ nullable: true, type: String }) next_cursor!: string | null;

  static from(page: FindingPage): FindingPageDto {
    return { items: page.items.map((f) => FindingDto.from(f)), next_cursor: page.nextCursor };
  }
}
