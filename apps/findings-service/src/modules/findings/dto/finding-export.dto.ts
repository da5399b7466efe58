import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { FindingExportLink } from '../export/findings-export.service';
import { FindingSelectionQueryDto } from './finding-overview.dto';

/** GET /findings/export.csv: the list's selection, and a download link instead of a header. */
export class FindingExportQueryDto extends FindingSelectionQueryDto {
  @ApiPropertyOptional({
    description:
      'A single-use link from POST /findings/export-links, for a browser download without an Authorization header; ignored when a header is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  download_token?: string;
}

/** A single-use download of the selection: open `url` within 60 s, once. */
export class FindingExportLinkDto {
  @ApiProperty({
    example: '/api/v1/findings/export.csv?severity=HIGH&download_token=dl_…',
    description:
      'export.csv with the same selection and a single-use download_token, relative to the API origin',
  })
  url!: string;
  @ApiProperty({ description: 'after this instant the link answers 401 download_link_invalid' })
  expires_at!: string;

  static from(link: FindingExportLink): FindingExportLinkDto {
    return { url: link.url, expires_at: link.expiresAt.toISOString() };
  }
}
