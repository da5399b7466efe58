import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalNotNull, QueryInt } from '@platform/http';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ENTRY_KINDS } from '../perimeter/scope-entry-value';
import { PROPOSAL_STATUSES, type ProposalStatus } from '../scope.entities';
import type { Page, ScopeProposalView } from '../scope-views';
import { displayValue, ScopeActorDto } from './scope-entry.dto';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** POST /projects/{id}/scope/proposals */
export class ProposeScopeObjectDto {
  @ApiProperty({
    description:
      'what the scanner found: an address, block, range, host name or wildcard (the entry notation)',
    maxLength: 300,
  })
  @IsString()
  @MaxLength(1000)
  value!: string;

  @ApiPropertyOptional({ maxLength: 2000, description: 'what the scanner saw, where' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2000)
  comment?: string;
}

/** POST .../proposals/{proposal_id}/confirm and .../reject */
export class DecideScopeProposalDto {
  @ApiPropertyOptional({ maxLength: 2000, description: 'why (kept with the decision)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2000)
  comment?: string;
}

export class ScopeProposalDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ description: 'canonical ASCII value' }) value!: string;
  @ApiProperty() value_unicode!: string;
  @ApiProperty({ enum: ENTRY_KINDS }) kind!: string;
  @ApiProperty({ enum: PROPOSAL_STATUSES }) status!: string;
  @ApiProperty({ nullable: true, type: String }) comment!: string | null;
  @ApiProperty({ type: ScopeActorDto, description: 'who proposed it first' })
  proposed_by!: ScopeActorDto;
  @ApiProperty({ description: 'how often it was proposed' }) times_proposed!: number;
  @ApiProperty({ format: 'date-time' }) first_proposed_at!: string;
  @ApiProperty({ format: 'date-time' }) last_proposed_at!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) decided_at!: string | null;
  @ApiProperty({ nullable: true, type: ScopeActorDto }) decided_by!: ScopeActorDto | null;
  @ApiProperty({ nullable: true, type: String }) decision_comment!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'the entry a confirmation made (null once that entry is deleted)',
  })
  entry_id!: string | null;

  static from(p: ScopeProposalView): ScopeProposalDto {
    return {
      id: p.id,
      project_id: p.projectId,
      value: p.value,
      value_unicode: displayValue(p.kind, p.value),
      kind: p.kind,
      status: p.status,
      comment: p.comment,
      proposed_by: ScopeActorDto.from(p.proposedBy),
      times_proposed: p.timesProposed,
      first_proposed_at: p.firstProposedAt.toISOString(),
      last_proposed_at: p.lastProposedAt.toISOString(),
      decided_at: iso(p.decidedAt),
      decided_by: p.decidedBy ? ScopeActorDto.from(p.decidedBy) : null,
      decision_comment: p.decisionComment,
      entry_id: p.entryId,
    };
  }
}

export class ScopeProposalPageDto {
  @ApiProperty({ type: [ScopeProposalDto] }) items!: ScopeProposalDto[];
  @ApiProperty({ nullable: true, type: String }) next_cursor!: string | null;

  static from(page: Page<ScopeProposalView>): ScopeProposalPageDto {
    return {
      items: page.items.map((p) => ScopeProposalDto.from(p)),
      next_cursor: page.nextCursor,
    };
  }
}

export const PROPOSAL_LIST_STATUSES = [...PROPOSAL_STATUSES, 'all'] as const;

/** GET /projects/{id}/scope/proposals (oldest first) */
export class ListScopeProposalsQueryDto {
  @ApiPropertyOptional({ enum: PROPOSAL_LIST_STATUSES, default: 'pending' })
  @IsOptional()
  @IsIn(PROPOSAL_LIST_STATUSES)
  status?: ProposalStatus | 'all';

  @ApiPropertyOptional({ description: 'next_cursor of the previous page (same status)' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;

  @QueryInt({ min: 1, max: 500, default: 100 })
  limit?: number;
}
