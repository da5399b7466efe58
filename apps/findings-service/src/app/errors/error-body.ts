import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FIELD_PROBLEM_CODES } from './field-problems';

export class FieldProblemDto {
  @ApiProperty({ example: 'email' }) field!: string;
  @ApiProperty({
    type: [String],
    example: ['an e-mail address'],
    description:
      'validation_failed: short reasons in the language of Accept-Language (en, ru), to show next to the field',
  })
  problems!: string[];
  @ApiPropertyOptional({
    type: [String],
    enum: FIELD_PROBLEM_CODES,
    example: ['email'],
    description: 'validation_failed: the stable code of each problem, in the same order',
  })
  codes?: string[];
}

/** The machine-readable part of an error's cause. */
export class ErrorDetailsDto {
  @ApiProperty({ example: 'deadline_exceeded', description: 'A stable code of the cause' })
  reason!: string;
}

/** Envelope of every error answer. */
export class ErrorBodyDto {
  @ApiProperty({ description: 'Message localized by Accept-Language (en, ru)' })
  error!: string;

  @ApiProperty({ description: 'Stable machine-readable code', example: 'validation_failed' })
  code!: string;

  @ApiPropertyOptional({ type: [FieldProblemDto], description: 'Validation problems (400)' })
  fields?: FieldProblemDto[];

  @ApiPropertyOptional({ description: 'query_syntax_error: 1-based character position' })
  position?: number;

  @ApiPropertyOptional({
    description: 'query_syntax_error, bad_request: the problem found (English)',
  })
  problem?: string;

  @ApiPropertyOptional({
    type: ErrorDetailsDto,
    description:
      'Why, where a code has several causes: details.reason (e.g. enrichment_failed: the runner code; conflict: what is in the way)',
  })
  details?: ErrorDetailsDto;

  @ApiPropertyOptional({ description: 'Correlates a 500 answer with the server log' })
  error_id?: string;
}
