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
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      "a user actor's display name, resolved when read (null for keys, the system, deleted users)",
  })
  name!: string | null;
}

export class FindingActionDto {
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'uuid' }) finding_id!: string;
  @ApiProperty({ type: ActionActorDto }) actor!: ActionActorDto;
  @ApiProperty({ enum: FINDING_ACTIONS }) action!: string;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description:
      'The state before; an assignee_id has an assignee {id, email, display_name} (null: unassigned or deleted) beside it',
  })
  from!: Record<string, unknown> | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description:
      'The state after; status entries of decisions carry justification; assignee as in from',
  })
  to!: Record<string, unknown> | null;
  @ApiProperty({ format: 'date-time' }) at!: string;

  static from(a: FindingAction): FindingActionDto {
    return {
      id: a.id,
      finding_id: a.findingId,
      actor: { type: a.actor.type, id: a.actor.id, label: a.actor.label, name: a.actor.name },
      action: a.action,
      from: a.from,
      to: a.to,
      at: a.at.toISOString(),
    };
  }
}

/** The entry that put the finding into its current status (who decided, when, and why). */
export class StatusDecisionDto {
  @ApiProperty() status!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ type: ActionActorDto }) actor!: ActionActorDto;
  @ApiProperty({ nullable: true, type: String }) justification!: string | null;

  static from(a: FindingAction | null): StatusDecisionDto | null {
    if (!a) return null;
    const justification = a.to?.['justification'];
    return {
      status: String(a.to?.['status']),
      at: a.at.toISOString(),
      actor: { type: a.actor.type, id: a.actor.id, label: a.actor.label, name: a.actor.name },
      justification: typeof justification === 'string' ? justification : null,
    };
  }
}
