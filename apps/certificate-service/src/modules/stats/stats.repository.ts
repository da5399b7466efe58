import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface DashboardCounts {
  devicesTotal: number;
  devicesBlocked: number;
  requestsByStatus: Record<string, number>;
  certificatesActive: number;
  certificatesRevoked: number;
  certificatesExpiringSoon: number;
  certificatesExpired: number;
  slotsInUse: number;
}

@Injectable()
export class StatsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async counts(now: Date, soon: Date): Promise<DashboardCounts> {
    const [devices, requests, certificates, slots] = await Promise.all([
      this.dataSource.query(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE blocked)::int AS blocked FROM devices`,
      ) as Promise<{ total: number; blocked: number }[]>,
      this.dataSource.query(
        `SELECT status, count(*)::int AS n FROM certificate_requests GROUP BY status`,
      ) as Promise<{ status: string; n: number }[]>,
      this.dataSource.query(
        `SELECT count(*) FILTER (WHERE status = 'active' AND not_after > $1)::int AS active,
                count(*) FILTER (WHERE status = 'revoked')::int AS revoked,
                count(*) FILTER (WHERE status = 'active' AND not_after > $1 AND not_after <= $2)::int AS expiring,
                count(*) FILTER (WHERE status = 'active' AND not_after <= $1)::int AS expired
         FROM certificates`,
        [now, soon],
      ) as Promise<{ active: number; revoked: number; expiring: number; expired: number }[]>,
      this.dataSource.query(`SELECT count(*)::int AS n FROM license_slots`) as Promise<
        { n: number }[]
      >,
    ]);
    return {
      devicesTotal: devices[0].total,
      devicesBlocked: devices[0].blocked,
      requestsByStatus: Object.fromEntries(requests.map((r) => [r.status, r.n])),
      certificatesActive: certificates[0].active,
      certificatesRevoked: certificates[0].revoked,
      certificatesExpiringSoon: certificates[0].expiring,
      certificatesExpired: certificates[0].expired,
      slotsInUse: slots[0].n,
    };
  }
}
