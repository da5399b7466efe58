import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { ProjectEntity } from '../project.entity';

/** Remediation days per severity; null means no deadline. */
export class RemediationDaysDto {
  @ApiProperty({ nullable: true, type: Number, example: 7 }) CRITICAL!: number | null;
  @ApiProperty({ nullable: true, type: Number, example: 14 }) HIGH!: number | null;
  @ApiProperty({ nullable: true, type: Number, example: 30 }) MEDIUM!: number | null;
  @ApiProperty({ nullable: true, type: Number, example: 90 }) LOW!: number | null;
  @ApiProperty({ nullable: true, type: Number, example: null }) INFO!: number | null;
}

export class ProjectSettingsDto {
  @ApiProperty({ type: RemediationDaysDto }) remediation_days!: RemediationDaysDto;
  @ApiProperty({ description: 'Automatic closure of fixed findings (with verify_fixes uploads)' })
  auto_verify_fixes!: boolean;

  static from(project: ProjectEntity): ProjectSettingsDto {
    return {
      remediation_days: {
        CRITICAL: project.slaCriticalDays,
        HIGH: project.slaHighDays,
        MEDIUM: project.slaMediumDays,
        LOW: project.slaLowDays,
        INFO: project.slaInfoDays,
      },
      auto_verify_fixes: project.autoVerifyFixes,
    };
  }
}

function days(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsInt()(target, key);
    Min(1)(target, key);
    Max(3650)(target, key);
    ApiPropertyOptional({ nullable: true, type: Number, minimum: 1, maximum: 3650 })(target, key);
  };
}

/** Omitted severities stay unchanged; `null` removes the deadline. */
export class RemediationDaysPatchDto {
  @days() CRITICAL?: number | null;
  @days() HIGH?: number | null;
  @days() MEDIUM?: number | null;
  @days() LOW?: number | null;
  @days() INFO?: number | null;
}

export class UpdateProjectSettingsDto {
  @ApiPropertyOptional({ type: RemediationDaysPatchDto })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => RemediationDaysPatchDto)
  remediation_days?: RemediationDaysPatchDto;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  auto_verify_fixes?: boolean;
}
