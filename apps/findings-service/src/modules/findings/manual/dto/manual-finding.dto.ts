import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { SEVERITIES, Severity } from '@platform/report-parsing';
import { FindingEntity } from '../../finding.entity';
import { findingSources } from '../../finding-sources';

// Line numbers are PostgreSQL integers.
const MAX_LINE = 2_147_483_647;

/** A finding entered by hand: `host` (network), `path` (code) or `url` (web) is required. */
export class CreateManualFindingDto {
  @ApiProperty({ example: 'Exposed admin console' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  title!: string;

  @ApiProperty({ enum: SEVERITIES })
  @IsIn(SEVERITIES)
  severity!: Severity;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @MaxLength(20_000)
  description?: string;

  @ApiPropertyOptional({ example: 'db1.example.com' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  host?: string;

  @ApiPropertyOptional({ example: 5432 })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(65535)
  port?: number;

  @ApiPropertyOptional({ example: 'tcp' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(16)
  protocol?: string;

  @ApiPropertyOptional({ example: 'src/app.c' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2_000)
  path?: string;

  @ApiPropertyOptional({ example: 12 })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(MAX_LINE)
  start_line?: number;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(MAX_LINE)
  end_line?: number;

  @ApiPropertyOptional({ example: 'https://app.example.com/admin' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^https?:\/\//i, { message: 'url must start with http:// or https://' })
  @MaxLength(2_000)
  url?: string;

  @ApiPropertyOptional({ example: 'manual-exposed-console' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  rule_id?: string;

  @ApiPropertyOptional({ example: 'pentest' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  scanner?: string;

  @ApiPropertyOptional({ example: 'CVE-2024-1234' })
  @OptionalNotNull()
  @Matches(/^CVE-\d{4}-\d{4,}$/i)
  @MaxLength(64)
  cve?: string;
}

export class ManualFindingDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) product_id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: SEVERITIES }) severity!: string;
  @ApiProperty() status!: string;
  @ApiProperty() rule_id!: string;
  @ApiProperty() scanner!: string;
  @ApiProperty({ nullable: true, type: String }) host!: string | null;
  @ApiProperty({ nullable: true, type: Number }) port!: number | null;
  @ApiProperty({ nullable: true, type: String }) protocol!: string | null;
  @ApiProperty({ nullable: true, type: String }) url!: string | null;
  @ApiProperty({ nullable: true, type: String }) file_path!: string | null;
  @ApiProperty({ nullable: true, type: String }) cve!: string | null;
  @ApiProperty({ description: 'One entry per scanner' }) sources!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) first_seen_at!: string;
  @ApiProperty({ format: 'date-time' }) last_seen_at!: string;

  static from(f: FindingEntity): ManualFindingDto {
    return {
      id: f.id,
      product_id: f.productId,
      project_id: f.projectId,
      title: f.title,
      severity: f.severity,
      status: f.status,
      rule_id: f.ruleId,
      scanner: f.scanner,
      host: f.host,
      port: f.port,
      protocol: f.protocol,
      url: f.url,
      file_path: f.filePath,
      cve: f.cve,
      sources: findingSources(f),
      first_seen_at: f.firstSeenAt.toISOString(),
      last_seen_at: f.lastSeenAt.toISOString(),
    };
  }
}
