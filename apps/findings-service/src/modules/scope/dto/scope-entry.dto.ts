import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalNotNull, QueryInt } from '@platform/http';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import type { Actor } from '../../action-log/finding-action';
import { hostNameForDisplay } from '../perimeter/host-name';
import type { EntryMode } from '../perimeter/perimeter';
import { ENTRY_KINDS, type EntryKind } from '../perimeter/scope-entry-value';
import { ENTRY_ORIGINS } from '../scope.entities';
import type { Page, ScopeEntryView } from '../scope-views';

export const ENTRY_MODES = ['include', 'exclude'] as const;

/** The value for people: names and wildcards with their `xn--` labels in Unicode. */
export function displayValue(kind: EntryKind, value: string): string {
  return kind === 'domain' || kind === 'wildcard' ? hostNameForDisplay(value) : value;
}

export class ScopeActorDto {
  @ApiProperty({ enum: ['user', 'service_account', 'system'] }) type!: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'e-mail or account name' })
  label!: string | null;

  static from(a: Actor): ScopeActorDto {
    return { type: a.type, id: a.id, label: a.label };
  }
}

/** One perimeter entry. */
export class ScopeEntryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ enum: ENTRY_MODES }) mode!: string;
  @ApiProperty({ enum: ENTRY_KINDS }) kind!: string;
  @ApiProperty({
    description: 'canonical value, ASCII: names in punycode (`xn--`), IPv6 in RFC 5952 form',
  })
  value!: string;
  @ApiProperty({ description: 'the value for people: internationalized names in Unicode' })
  value_unicode!: string;
  @ApiProperty({ nullable: true, type: String }) comment!: string | null;
  @ApiProperty({ enum: ENTRY_ORIGINS }) origin!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'the proposal id, or the IPAM object (`netbox prefix 12`)',
  })
  origin_ref!: string | null;
  @ApiProperty({ type: ScopeActorDto }) created_by!: ScopeActorDto;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(e: ScopeEntryView): ScopeEntryDto {
    return {
      id: e.id,
      project_id: e.projectId,
      mode: e.mode,
      kind: e.kind,
      value: e.value,
      value_unicode: displayValue(e.kind, e.value),
      comment: e.comment,
      origin: e.origin,
      origin_ref: e.originRef,
      created_by: ScopeActorDto.from(e.createdBy),
      created_at: e.createdAt.toISOString(),
    };
  }
}

export class ScopeEntryPageDto {
  @ApiProperty({ type: [ScopeEntryDto] }) items!: ScopeEntryDto[];
  @ApiProperty({ nullable: true, type: String }) next_cursor!: string | null;

  static from(page: Page<ScopeEntryView>): ScopeEntryPageDto {
    return { items: page.items.map((e) => ScopeEntryDto.from(e)), next_cursor: page.nextCursor };
  }
}

/** GET /projects/{id}/scope: filters and keyset paging (oldest first). */
export class ListScopeEntriesQueryDto {
  @ApiPropertyOptional({ enum: ENTRY_MODES })
  @IsOptional()
  @IsIn(ENTRY_MODES)
  mode?: EntryMode;

  @ApiPropertyOptional({ enum: ENTRY_KINDS })
  @IsOptional()
  @IsIn(ENTRY_KINDS)
  kind?: EntryKind;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page (same filters)' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;

  @QueryInt({ min: 1, max: 500, default: 100 })
  limit?: number;
}

export class NewScopeEntryDto {
  @ApiProperty({
    description:
      'an IP address, a CIDR block (`10.0.0.0/24`, `2001:db8::/48`), a range (`10.0.0.5-10.0.0.90`), a host name (exactly that name; Unicode or punycode) or a wildcard `*.example.com` (every name below it, not the name itself)',
    maxLength: 300,
  })
  @IsString()
  @MaxLength(1000)
  value!: string;

  @ApiPropertyOptional({
    enum: ENTRY_MODES,
    default: 'include',
    description: 'an exclude carves out of the includes (it always wins)',
  })
  @OptionalNotNull()
  @IsIn(ENTRY_MODES)
  mode?: EntryMode;

  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  comment?: string;
}

/** POST /projects/{id}/scope/entries */
export class AddScopeEntriesDto {
  @ApiProperty({
    type: [NewScopeEntryDto],
    description:
      'at most 1 000 per request (400 scope_batch_too_large); all are added or none (409 names the entry met)',
  })
  @IsArray()
  @ArrayMinSize(1)
  // An item must be an object: ValidateNested alone walks into a nested array (`[[...]]`).
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => NewScopeEntryDto)
  entries!: NewScopeEntryDto[];
}
