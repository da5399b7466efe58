import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { PagingQueryDto } from '../../../app/http/paging.dto';
import { EnrollNote, EnrollText } from '../../enrollment/dto/enroll-text';
import {
  DIRECTIVE_MESSAGE_MAX_LENGTH,
  DIRECTIVE_OUTCOMES,
  DIRECTIVE_PURPOSES,
  DIRECTIVE_STATES,
  type DirectiveOutcome,
  type DirectivePurpose,
  type DirectiveState,
} from '../directive-states';
import type { IssuanceDirectiveEntity } from '../issuance-directive.entity';
import type { DirectiveRow } from '../issuance-directives.repository';

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+$/;

export class CreateDirectiveDto {
  @ApiProperty({ enum: DIRECTIVE_PURPOSES })
  @IsIn(DIRECTIVE_PURPOSES)
  purpose!: DirectivePurpose;

  @ApiProperty({
    example: 'alice@example.com',
    maxLength: 320,
    description: 'the person (email, stored lower-cased): the `user` of `POST /enroll/user`',
  })
  @EnrollText(320)
  @Matches(EMAIL_LIKE, { message: 'user must be an email address' })
  user!: string;

  @ApiPropertyOptional({
    example: 'alice@corp.example.com',
    maxLength: 320,
    description: 'user principal name; required for `ad_logon`',
  })
  @ValidateIf((o: CreateDirectiveDto) => o.purpose === 'ad_logon' || o.upn !== undefined)
  @EnrollText(320)
  @Matches(EMAIL_LIKE, { message: 'upn must look like user@domain' })
  upn?: string;
}

export class DirectiveQueryDto extends PagingQueryDto {
  @ApiPropertyOptional({ enum: DIRECTIVE_STATES })
  @IsOptional()
  @IsIn(DIRECTIVE_STATES)
  state?: DirectiveState;
}

export class DirectiveReportDto {
  @ApiProperty({ enum: DIRECTIVE_OUTCOMES })
  @IsIn(DIRECTIVE_OUTCOMES)
  outcome!: DirectiveOutcome;

  @ApiPropertyOptional({ maxLength: DIRECTIVE_MESSAGE_MAX_LENGTH })
  @OptionalNotNull()
  @EnrollNote(DIRECTIVE_MESSAGE_MAX_LENGTH)
  message?: string;
}

export class DirectiveDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() serial!: string;
  @ApiProperty({ enum: DIRECTIVE_PURPOSES }) purpose!: DirectivePurpose;
  @ApiProperty({ description: 'the person, lower-cased email' }) user!: string;
  @ApiProperty({ nullable: true, type: String }) upn!: string | null;
  @ApiProperty({ enum: DIRECTIVE_STATES }) state!: DirectiveState;
  @ApiProperty() created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) delivered_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) reported_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) message!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) cancelled_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) cancelled_by!: string | null;

  static from({ directive: d, serial }: DirectiveRow): DirectiveDto {
    return {
      id: d.id,
      serial,
      purpose: d.purpose,
      user: d.person,
      upn: d.upn,
      state: d.state,
      created_by: d.createdBy,
      created_at: d.createdAt.toISOString(),
      delivered_at: d.deliveredAt?.toISOString() ?? null,
      reported_at: d.reportedAt?.toISOString() ?? null,
      message: d.outcomeMessage,
      cancelled_at: d.cancelledAt?.toISOString() ?? null,
      cancelled_by: d.cancelledBy,
    };
  }
}

export class DirectivePageDto {
  @ApiProperty({ type: [DirectiveDto] }) items!: DirectiveDto[];
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;
}

export class DirectiveListDto {
  @ApiProperty({ type: [DirectiveDto] }) items!: DirectiveDto[];
}

/** What a check-in answer carries of a directive: what the agent needs to act on it. */
export class AgentDirectiveDto {
  @ApiProperty({
    format: 'uuid',
    description: 'report to `/enroll/issuance-directives/{id}/report`',
  })
  id!: string;
  @ApiProperty({ enum: DIRECTIVE_PURPOSES }) purpose!: DirectivePurpose;
  @ApiProperty({ description: 'the `user` to send to `POST /enroll/user`' }) user!: string;
  @ApiProperty({ nullable: true, type: String }) upn!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(d: IssuanceDirectiveEntity): AgentDirectiveDto {
    return {
      id: d.id,
      purpose: d.purpose,
      user: d.person,
      upn: d.upn,
      created_at: d.createdAt.toISOString(),
    };
  }
}
