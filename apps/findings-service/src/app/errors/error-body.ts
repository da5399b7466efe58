import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldProblemDto {
  @ApiProperty({ example: 'email' }) field!: string;
  @ApiProperty({ type: [String], example: ['email must be an email'] }) problems!: string[];
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

  @ApiPropertyOptional({ description: 'Correlates a 500 answer with the server log' })
  error_id?: string;
}
