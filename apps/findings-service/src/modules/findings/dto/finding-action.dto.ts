import { ApiProperty } from '@nestjs/swagger';
import { QueryInt } from '@platform/http';
import { ACTOR_TYPES, FINDING_ACTIONS, FindingAction } from '../../action-log/finding-action';

export class FindingActionsQueryDto {
  @QueryInt({ min: 1, max: 1000, default: 100 })
  limit?: number;

  @QueryInt({
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    description: 'Entries after this entry id (oldest first)',
  })
  after?: number;
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
