import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNumberString, IsOptional, Max, Min } from 'class-validator';
import { ACTOR_TYPES, FINDING_ACTIONS, FindingAction } from '../../action-log/finding-action';

export class FindingActionsQueryDto {
  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ description: 'Entries after this entry id (oldest first)' })
  @IsOptional()
  @IsNumberString({ no_symbols: true })
  after?: string;
}

export class ActionActorDto {
  @ApiProperty({ enum: ACTOR_TYPES, description: 'system = automatic change' }) type!: string;
  @ApiProperty({ nullable: true, type: String }) id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'e-mail, account name or mechanism' })
  label!: string | null;
}

export class FindingActionDto {
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'uuid' }) finding_id!: string;
  @ApiProperty({ type: ActionActorDto }) actor!: ActionActorDto;
  @ApiProperty({ enum: FINDING_ACTIONS }) action!: string;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true }) from!: Record<
    string,
    unknown
  > | null;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true }) to!: Record<
    string,
    unknown
  > | null;
  @ApiProperty({ format: 'date-time' }) at!: string;

  static from(a: FindingAction): FindingActionDto {
    return {
      id: a.id,
      finding_id: a.findingId,
      actor: { type: a.actor.type, id: a.actor.id, label: a.actor.label },
      action: a.action,
      from: a.from,
      to: a.to,
      at: a.at.toISOString(),
    };
  }
}
