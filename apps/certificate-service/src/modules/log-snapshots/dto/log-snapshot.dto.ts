import { ApiProperty } from '@nestjs/swagger';
import type { LogSnapshotEntity } from '../log-snapshot.entity';

export class LogSnapshotDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'request whose agent uploaded it' })
  request_id!: string;
  @ApiProperty({ format: 'date-time' }) uploaded_at!: string;
  @ApiProperty({ description: 'bytes as uploaded (gzip)' }) size_bytes!: number;
  @ApiProperty({ example: 'application/gzip' }) content_type!: string;
  @ApiProperty({ description: 'SHA-256 of the stored bytes, lowercase hex' }) sha256!: string;
  @ApiProperty({ format: 'date-time', description: 'purged after this (7 days)' })
  expires_at!: string;

  static from(row: LogSnapshotEntity, retentionMs: number): LogSnapshotDto {
    return {
      id: row.id,
      request_id: row.requestId,
      uploaded_at: row.uploadedAt.toISOString(),
      size_bytes: row.sizeBytes,
      content_type: row.contentType,
      sha256: row.sha256,
      expires_at: new Date(row.uploadedAt.getTime() + retentionMs).toISOString(),
    };
  }
}

export class LogSnapshotListDto {
  @ApiProperty({ type: [LogSnapshotDto], description: 'newest first' })
  items!: LogSnapshotDto[];
}

export class LogRequestDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ format: 'date-time' }) requested_at!: string;
}
