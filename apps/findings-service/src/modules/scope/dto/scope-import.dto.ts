import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalNotNull } from '@platform/http';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { NETBOX_OBJECTS, type NetboxObjects } from '../ipam/netbox-client';
import type { IpamImportResult } from '../ipam/scope-import.service';
import type { EntryMode } from '../perimeter/perimeter';
import { ENTRY_MODES } from './scope-entry.dto';

/** POST /projects/{id}/scope/import/{ipam_system} */
export class IpamImportDto {
  @ApiProperty({
    description:
      'the NetBox address (`https://netbox.example.com`; a trailing `/api` is accepted). Called through the request-forgery guard: https only and no local or internal address unless OUTBOUND_ALLOW_HTTP / OUTBOUND_ALLOW_LOCAL_DIAL',
    maxLength: 2000,
  })
  @IsString()
  @MaxLength(2000)
  base_url!: string;

  @ApiProperty({
    description:
      'API token, sent as `Authorization: Token <token>`; used for this import only: never stored, logged or returned',
    writeOnly: true,
    maxLength: 500,
  })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  token!: string;

  @ApiPropertyOptional({
    type: [String],
    enum: NETBOX_OBJECTS,
    default: NETBOX_OBJECTS,
    description: 'what to import: prefixes (blocks) and/or IP addresses',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  @IsIn(NETBOX_OBJECTS, { each: true })
  objects?: NetboxObjects[];

  @ApiPropertyOptional({
    type: [String],
    description: 'tag slugs; NetBox selects objects carrying every one of them',
    maxItems: 10,
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @Matches(/^[-\w]{1,100}$/, { each: true, message: 'each tag must be a slug' })
  tag?: string[];

  @ApiPropertyOptional({
    type: [String],
    description:
      'status values (`active`, `reserved`, `deprecated`, `container`, ...): any of them',
    maxItems: 10,
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @Matches(/^[-\w]{1,50}$/, { each: true, message: 'each status must be a status value' })
  status?: string[];

  @ApiPropertyOptional({ description: 'a VRF id, or `null` (the text) for the global table' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^(\d{1,12}|null)$/, { message: 'vrf_id must be a VRF id or null' })
  vrf_id?: string;

  @ApiPropertyOptional({ enum: ENTRY_MODES, default: 'include' })
  @OptionalNotNull()
  @IsIn(ENTRY_MODES)
  mode?: EntryMode;
}

export class IpamSkippedDto {
  @ApiProperty() value!: string;
  @ApiProperty() reason!: string;
}

export class IpamImportResultDto {
  @ApiProperty({ enum: ['netbox'] }) system!: string;
  @ApiProperty() prefixes_read!: number;
  @ApiProperty() addresses_read!: number;
  @ApiProperty({ description: 'new entries' }) added!: number;
  @ApiProperty({ description: 'already entries (or listed twice)' }) already_present!: number;
  @ApiProperty({ description: 'left out: they overlap an entry of the same mode' })
  skipped_overlap!: number;
  @ApiProperty({ description: 'left out: the perimeter refuses them (too wide, ...)' })
  skipped_invalid!: number;
  @ApiProperty({ type: [IpamSkippedDto], description: 'the first 100 left out, with why' })
  skipped!: IpamSkippedDto[];

  static from(r: IpamImportResult): IpamImportResultDto {
    return {
      system: r.system,
      prefixes_read: r.prefixesRead,
      addresses_read: r.addressesRead,
      added: r.added,
      already_present: r.alreadyPresent,
      skipped_overlap: r.skippedOverlap,
      skipped_invalid: r.skippedInvalid,
      skipped: r.skipped,
    };
  }
}
