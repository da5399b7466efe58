import { Injectable } from '@nestjs/common';
import { EffectiveLicenseService } from '../license/effective-license.service';
import { REQUEST_STATUSES } from '../requests/request-status';
import type { StatsDto } from './dto/stats.dto';
import { StatsRepository } from './stats.repository';

export const EXPIRING_WINDOW_DAYS = 30;

/** Dashboard figures for `GET /api/v1/admin/stats`. */
@Injectable()
export class StatsService {
  constructor(
    private readonly stats: StatsRepository,
    private readonly license: EffectiveLicenseService,
  ) {}

  async dashboard(now = new Date()): Promise<StatsDto> {
    const soon = new Date(now.getTime() + EXPIRING_WINDOW_DAYS * 86_400_000);
    const c = await this.stats.counts(now, soon);
    return {
      devices: { total: c.devicesTotal, blocked: c.devicesBlocked },
      requests: Object.fromEntries(REQUEST_STATUSES.map((s) => [s, c.requestsByStatus[s] ?? 0])),
      certificates: {
        active: c.certificatesActive,
        revoked: c.certificatesRevoked,
        expiring_soon: c.certificatesExpiringSoon,
        expired: c.certificatesExpired,
        expiring_window_days: EXPIRING_WINDOW_DAYS,
      },
      license: { active_count: c.slotsInUse, max_devices: await this.license.maxDevices() },
    };
  }
}
