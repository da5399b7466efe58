import { ApiProperty } from '@nestjs/swagger';
import { QueryInt } from '@platform/http';
import { PagingQueryDto } from '../../../app/http/paging.dto';
import { SOURCE_AUTH_MODES, type SourceAuthMode } from '../../settings/enroll-source-auth.policy';
import type { StuckDeviceRow } from '../agent-update.repository';
import type { NoticeLevel, PlatformUpdate, StuckPage } from '../agent-update.service';

/** Default of `min_hours`: a day to update before a device counts as stuck. */
export const DEFAULT_STUCK_HOURS = 24;

export class StuckQueryDto extends PagingQueryDto {
  /** Devices held back by the floor for at least this many hours (0..8760, default 24). */
  @QueryInt({ min: 0, max: 8760, default: DEFAULT_STUCK_HOURS })
  min_hours?: number;
}

export class StuckDeviceDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ type: String, nullable: true }) hostname!: string | null;
  @ApiProperty({ type: String, nullable: true }) owner!: string | null;
  @ApiProperty({ type: String, nullable: true }) platform!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'last reported; null: never' })
  agent_version!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_seen_at!: string | null;
  @ApiProperty({
    format: 'date-time',
    description: 'since when the floor holds it back: the later of floor change and enrollment',
  })
  stuck_since!: string;
  @ApiProperty({ description: 'whole hours since stuck_since' }) hours_stuck!: number;

  static from(row: StuckDeviceRow, now: Date): StuckDeviceDto {
    return {
      serial: row.serial,
      hostname: row.hostname,
      owner: row.owner,
      platform: row.platform,
      agent_version: row.agentVersion,
      last_seen_at: row.lastSeenAt?.toISOString() ?? null,
      stuck_since: row.stuckSince.toISOString(),
      hours_stuck: Math.floor((now.getTime() - row.stuckSince.getTime()) / 3600_000),
    };
  }
}

export class StuckDevicesPageDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'agent version the server forces (enroll source-auth floor); null: none',
  })
  required_version!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  required_since!: string | null;
  @ApiProperty() min_hours!: number;
  @ApiProperty({ type: [StuckDeviceDto] }) items!: StuckDeviceDto[];
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;

  static from(
    result: StuckPage,
    paging: { page: number; limit: number },
    now: Date,
  ): StuckDevicesPageDto {
    return {
      required_version: result.floor?.required ?? null,
      required_since: result.floor?.since.toISOString() ?? null,
      min_hours: result.minHours,
      items: result.items.map((row) => StuckDeviceDto.from(row, now)),
      page: paging.page,
      limit: paging.limit,
      total: result.total,
    };
  }
}

export class PlatformUpdateDto {
  @ApiProperty() server_version!: string;
  @ApiProperty() server_commit!: string;
  @ApiProperty() server_built_at!: string;
  @ApiProperty({ enum: SOURCE_AUTH_MODES }) source_auth_mode!: SourceAuthMode;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'agent version the server forces; null: no forced update',
  })
  required_agent_version!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  required_since!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'highest version any device reports' })
  newest_agent_version!: string | null;
  @ApiProperty({ description: 'unblocked devices' }) devices_total!: number;
  @ApiProperty() devices_below_required!: number;
  @ApiProperty() devices_on_newest!: number;
  @ApiProperty({ enum: ['none', 'info', 'warning'] }) notice_level!: NoticeLevel;
  @ApiProperty({ type: String, nullable: true }) notice!: string | null;

  static from(u: PlatformUpdate): PlatformUpdateDto {
    return {
      server_version: u.server.version,
      server_commit: u.server.commit,
      server_built_at: u.server.builtAt,
      source_auth_mode: u.mode,
      required_agent_version: u.floor?.required ?? null,
      required_since: u.floor?.since.toISOString() ?? null,
      newest_agent_version: u.newestAgentVersion,
      devices_total: u.devicesTotal,
      devices_below_required: u.devicesBelowRequired,
      devices_on_newest: u.devicesOnNewest,
      notice_level: u.noticeLevel,
      notice: u.notice,
    };
  }
}
