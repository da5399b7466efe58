import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ABSENCE_RESULTS } from '../../auto-closure/auto-closure.entities';

/** Answers one callback may carry. */
export const MAX_CALLBACK_RESULTS = 1000;

export class VerifyFindingResultDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  finding_id!: string;

  @ApiProperty({
    enum: ABSENCE_RESULTS,
    description: 'what the scanner saw when it checked again',
  })
  @IsIn(ABSENCE_RESULTS)
  result!: (typeof ABSENCE_RESULTS)[number];

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'the re-verification request this answers (request_id of our request)',
  })
  @IsOptional()
  @IsUUID('all')
  request_id?: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  details?: string;
}

export class VerifyFindingDto {
  @ApiPropertyOptional({ maxLength: 200, description: 'the answering scanner' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  scanner?: string;

  @ApiProperty({ type: [VerifyFindingResultDto], minItems: 1, maxItems: MAX_CALLBACK_RESULTS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CALLBACK_RESULTS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => VerifyFindingResultDto)
  results!: VerifyFindingResultDto[];
}

export class IgnoredResultDto {
  @ApiProperty() finding_id!: string;
  @ApiProperty({ enum: ['unknown_finding', 'unknown_request'] }) reason!: string;
}

export class VerifyFindingAnswerDto {
  @ApiProperty({ description: 'answers stored' }) recorded!: number;
  @ApiProperty({ type: [IgnoredResultDto] }) ignored!: IgnoredResultDto[];
  @ApiProperty({ description: 'findings closed automatically because of these answers' })
  closed!: number;
}

export class CreateCallbackKeyDto {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'the only project whose findings the key may answer for (default: any)',
  })
  @IsOptional()
  @IsUUID('all')
  project_id?: string;
}

export class RotateCallbackKeyDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: 2160,
    description: 'hours both keys stay valid (default SCANNER_CALLBACK_ROTATION_WINDOW_HOURS)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2160)
  window_hours?: number;
}

export class CallbackKeyDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'sent by scanners as X-Scanner-Key-Id' }) key_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) project_id!: string | null;
  @ApiProperty({ enum: ['active', 'rotating', 'expired', 'retired'] }) state!: string;
  @ApiPropertyOptional({ description: 'the HMAC secret; only in the answer that created it' })
  secret?: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) retired_at!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) replaced_by!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_used_at!: string | null;
}
