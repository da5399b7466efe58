import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { SERIAL_PATTERN } from '../../../app/domain/device-serial';
import type { CorpAllowlistEntryEntity } from '../corp-allowlist-entry.entity';

export class AddCorpAllowlistEntryDto {
  @ApiProperty({ example: 'PF3XYZ12' })
  @IsString()
  @Matches(SERIAL_PATTERN)
  serial!: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  note?: string;
}

export class CorpAllowlistEntryDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ nullable: true, type: String }) note!: string | null;
  @ApiProperty() added_by!: string;
  @ApiProperty({ format: 'date-time' }) added_at!: string;

  static from(e: CorpAllowlistEntryEntity): CorpAllowlistEntryDto {
    return {
      serial: e.serial,
      note: e.note,
      added_by: e.addedBy,
      added_at: e.addedAt.toISOString(),
    };
  }
}

export class CorpAllowlistDto {
  @ApiProperty({ type: [CorpAllowlistEntryDto] }) items!: CorpAllowlistEntryDto[];
}
