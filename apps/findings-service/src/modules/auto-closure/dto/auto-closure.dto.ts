import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { AUTO_CLOSURE_STATES, type AutoClosureState } from '../auto-closure-state';
import {
  ABSENCE_RESULTS,
  VERIFICATION_ORIGINS,
  VERIFICATION_STATES,
} from '../auto-closure.entities';

export class AutoClosureSwitchesDto {
  @ApiProperty({ description: 'FEATURE_AUTO_VERIFY_FIXES' }) feature!: boolean;
  @ApiProperty({ description: 'the project setting auto_verify_fixes' }) project!: boolean;
}

export class AutoClosureCheckRefDto {
  @ApiProperty({ format: 'uuid' }) report_id!: string;
  @ApiProperty({ enum: ABSENCE_RESULTS }) result!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

export class AutoClosureConfirmationDto {
  @ApiProperty({ enum: ABSENCE_RESULTS }) result!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) verification_id!: string | null;
}

export class AutoClosureProductCheckDto {
  @ApiProperty({ format: 'uuid' }) report_id!: string;
  @ApiProperty({ enum: ['running', 'completed', 'skipped'] }) state!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: '`feature_off` or `project_off` for a skipped check',
  })
  reason!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at!: string | null;
}

export class AutoClosureClosureDto {
  @ApiProperty({ format: 'date-time' }) closed_at!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'checks, required_checks, reports (the covering reports), confirmation',
  })
  evidence!: Record<string, unknown>;
}

export class AutoClosureViewDto {
  @ApiProperty({ enum: AUTO_CLOSURE_STATES }) state!: AutoClosureState;
  @ApiProperty({ type: AutoClosureSwitchesDto }) switches!: AutoClosureSwitchesDto;
  @ApiProperty({ description: 'consecutive absent checks a closure needs' })
  required_checks!: number;
  @ApiProperty({ description: 'absence evaluations within one check' })
  attempts_per_check!: number;
  @ApiProperty({ description: 'consecutive absent checks so far' }) consecutive_absent!: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  streak_started_at!: string | null;
  @ApiProperty({ type: [String], description: 'reports of the current streak, oldest first' })
  reports!: string[];
  @ApiProperty({ type: AutoClosureCheckRefDto, nullable: true })
  last_check!: AutoClosureCheckRefDto | null;
  @ApiProperty({ type: AutoClosureConfirmationDto, nullable: true })
  confirmation!: AutoClosureConfirmationDto | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  reverification_requested_at!: string | null;
  @ApiProperty({ type: AutoClosureClosureDto, nullable: true })
  closure!: AutoClosureClosureDto | null;
  @ApiProperty({ description: 'AUTO_CLOSE_MAX_PER_HOUR' }) max_per_hour!: number;
  @ApiProperty({ description: 'automatic closures in the project in the last hour' })
  closed_last_hour!: number;
  @ApiProperty({ type: AutoClosureProductCheckDto, nullable: true })
  last_product_check!: AutoClosureProductCheckDto | null;
}

export class VerificationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) finding_id!: string;
  @ApiProperty({ enum: VERIFICATION_ORIGINS }) origin!: string;
  @ApiProperty({
    enum: VERIFICATION_STATES,
    description: '`pending` (sent, no answer yet), `answered`, `failed` (not delivered)',
  })
  state!: string;
  @ApiProperty({ nullable: true, type: String }) requested_by!: string | null;
  @ApiProperty({ format: 'date-time' }) requested_at!: string;
  @ApiProperty({ nullable: true, type: String, description: 'why delivery failed' })
  delivery_error!: string | null;
  @ApiProperty({ enum: ABSENCE_RESULTS, nullable: true, type: String }) result!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) answered_at!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'callback key that signed the answer' })
  key_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) scanner!: string | null;
  @ApiProperty({ nullable: true, type: String }) details!: string | null;
}

export class VerificationEndpointDto {
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ description: 'an endpoint is set' }) configured!: boolean;
  @ApiProperty({ nullable: true, type: String }) url!: string | null;
  @ApiPropertyOptional({
    description:
      'HMAC key of the signed requests (X-Findings-Signature); returned only when created or rotated',
  })
  secret?: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) created_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) updated_at!: string | null;
}

export class PutVerificationEndpointDto {
  @ApiProperty({
    description:
      'https address where the project’s scanner takes re-verification requests (POST, JSON)',
    maxLength: 2048,
  })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({ description: 'issue a new signing secret (returned once)' })
  @IsOptional()
  @IsBoolean()
  rotate_secret?: boolean;
}
