import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID } from 'class-validator';
import type { MergedMember } from './finding-merges.repository';

/** Most findings one merge joins into a survivor. */
export const MAX_MERGE_FINDINGS = 100;

/** POST /findings/merge: the survivor and the findings merged into it (same product). */
export class MergeFindingsDto {
  @ApiProperty({
    format: 'uuid',
    description:
      'The finding that stays: it keeps its identity, status and triage fields and gains the sources of the others',
  })
  @IsUUID('all')
  survivor_id!: string;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_MERGE_FINDINGS,
    description:
      'Findings merged into the survivor: same product, not merged already, without merged findings of their own; duplicates are ignored',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_MERGE_FINDINGS)
  @IsUUID('all', { each: true })
  finding_ids!: string[];
}

export class MergeResultDto {
  @ApiProperty({ format: 'uuid', description: 'Identifies this merge in the action log' })
  merge_id!: string;
  @ApiProperty({ format: 'uuid' }) survivor_id!: string;
  @ApiProperty({ type: [String], format: 'uuid', description: 'Findings now merged' })
  merged_ids!: string[];
}

export class UnmergeResultDto {
  @ApiProperty({ format: 'uuid', description: 'The survivor they were merged into' })
  survivor_id!: string;
  @ApiProperty({ type: [String], format: 'uuid', description: 'Findings detached, restored' })
  unmerged_ids!: string[];
}

/** A finding merged into the one shown (FindingDetailDto.merged_members). */
export class MergedMemberDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() title!: string;
  @ApiProperty() severity!: string;
  @ApiProperty() status!: string;
  @ApiProperty({ format: 'date-time' }) merged_at!: string;

  static from(m: MergedMember): MergedMemberDto {
    return {
      id: m.id,
      title: m.title,
      severity: m.severity,
      status: m.status,
      merged_at: m.mergedAt.toISOString(),
    };
  }
}
