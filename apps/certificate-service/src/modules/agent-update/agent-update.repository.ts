import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { belowFloorSql, type ComparableVersion } from './agent-version-sql';

/** A device whose last reported agent version is below the enforced floor. */
export interface StuckDeviceRow {
  serial: string;
  hostname: string | null;
  owner: string | null;
  platform: string | null;
  agentVersion: string | null;
  lastSeenAt: Date | null;
  /** When the floor started to hold it back: the later of floor change and device creation. */
  stuckSince: Date;
}

export interface StuckQuery {
  floor: ComparableVersion;
  /** When the enforced floor was last set. */
  floorSince: Date;
  /** Only devices held back since before this instant. */
  stuckBefore: Date;
  limit: number;
  offset: number;
}

interface RawStuckRow {
  serial: string;
  hostname: string | null;
  owner: string | null;
  platform: string | null;
  agent_version: string | null;
  last_seen_at: Date | null;
  stuck_since: Date;
  total: string;
}

/** Reads the `devices` table (owned by modules/devices) for the agent-update views. */
@Injectable()
export class AgentUpdateRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Unblocked devices below the floor since before `stuckBefore`, longest held back first. */
  async stuck(query: StuckQuery): Promise<{ items: StuckDeviceRow[]; total: number }> {
    const rows = (await this.dataSource.query(
      `SELECT serial, hostname, owner, platform, agent_version, last_seen_at, stuck_since,
              count(*) OVER () AS total
       FROM (SELECT d.*, greatest(d.created_at, $3::timestamptz) AS stuck_since
             FROM devices d WHERE NOT d.blocked AND ${belowFloorSql('d.agent_version', 1)}) s
       WHERE stuck_since <= $4
       ORDER BY stuck_since ASC, serial ASC
       LIMIT $5 OFFSET $6`,
      [
        [...query.floor.parts],
        query.floor.preRelease,
        query.floorSince,
        query.stuckBefore,
        query.limit,
        query.offset,
      ],
    )) as RawStuckRow[];
    const total = rows[0] ? Number(rows[0].total) : await this.countStuck(query);
    return {
      items: rows.map((r) => ({
        serial: r.serial,
        hostname: r.hostname,
        owner: r.owner,
        platform: r.platform,
        agentVersion: r.agent_version,
        lastSeenAt: r.last_seen_at,
        stuckSince: r.stuck_since,
      })),
      total,
    };
  }

  /** Unblocked devices below `floor` (whatever the time). */
  async countBelow(floor: ComparableVersion): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*) AS n FROM devices d
       WHERE NOT d.blocked AND ${belowFloorSql('d.agent_version', 1)}`,
      [[...floor.parts], floor.preRelease],
    )) as { n: string }[];
    return Number(row.n);
  }

  /** Every distinct agent version reported by an unblocked device, with its device count. */
  async versions(): Promise<{ agentVersion: string; devices: number }[]> {
    const rows = (await this.dataSource.query(
      `SELECT agent_version, count(*) AS n FROM devices
       WHERE NOT blocked AND agent_version IS NOT NULL GROUP BY agent_version`,
    )) as { agent_version: string; n: string }[];
    return rows.map((r) => ({ agentVersion: r.agent_version, devices: Number(r.n) }));
  }

  async countDevices(): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*) AS n FROM devices WHERE NOT blocked`,
    )) as { n: string }[];
    return Number(row.n);
  }

  /** Total when the requested page is past the end (no row carried the window count). */
  private async countStuck(query: StuckQuery): Promise<number> {
    if (query.offset === 0) return 0;
    const [row] = (await this.dataSource.query(
      `SELECT count(*) AS n FROM devices d
       WHERE NOT d.blocked AND ${belowFloorSql('d.agent_version', 1)}
         AND greatest(d.created_at, $3::timestamptz) <= $4`,
      [[...query.floor.parts], query.floor.preRelease, query.floorSince, query.stuckBefore],
    )) as { n: string }[];
    return Number(row.n);
  }
}
