import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayUnique,
  IsArray,
  IsDefined,
  IsIn,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import { OVERRIDE_MODES, type OverrideMode } from '../purpose-access';

export class SetPurposesDto {
  @ApiProperty({ enum: PURPOSES, isArray: true })
  @IsArray()
  @ArrayUnique()
  @IsIn(PURPOSES, { each: true })
  purposes!: Purpose[];
}

export class SetOwnerDto {
  @ApiProperty({ nullable: true, type: String, description: 'null removes the owner' })
  @ValidateIf((o: SetOwnerDto) => o.owner !== null)
  @IsString()
  @MinLength(1)
  @MaxLength(320)
  owner!: string | null;
}

/** One optional property per purpose: `inherit`, `allow` or `deny`. */
export class OverrideModesDto implements Partial<Record<Purpose, OverrideMode>> {
  @ApiPropertyOptional({ enum: OVERRIDE_MODES })
  @OptionalNotNull()
  @IsIn(OVERRIDE_MODES)
  wifi?: OverrideMode;
  @ApiPropertyOptional({ enum: OVERRIDE_MODES })
  @OptionalNotNull()
  @IsIn(OVERRIDE_MODES)
  user_mtls?: OverrideMode;
  @ApiPropertyOptional({ enum: OVERRIDE_MODES })
  @OptionalNotNull()
  @IsIn(OVERRIDE_MODES)
  ad_logon?: OverrideMode;
  @ApiPropertyOptional({ enum: OVERRIDE_MODES })
  @OptionalNotNull()
  @IsIn(OVERRIDE_MODES)
  ssh?: OverrideMode;
  @ApiPropertyOptional({ enum: OVERRIDE_MODES })
  @OptionalNotNull()
  @IsIn(OVERRIDE_MODES)
  k8s?: OverrideMode;
  @ApiPropertyOptional({ enum: OVERRIDE_MODES })
  @OptionalNotNull()
  @IsIn(OVERRIDE_MODES)
  vpn?: OverrideMode;
}

export class SetOverridesDto {
  @ApiProperty({ type: OverrideModesDto, description: 'purposes not named stay as they are' })
  @IsDefined()
  @ValidateNested()
  @Type(() => OverrideModesDto)
  overrides!: OverrideModesDto;
}
