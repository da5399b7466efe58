import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { Clock } from '../../app/clock';
import { normalizeHostName } from './perimeter/host-name';
import { formatIp, parseIp } from './perimeter/ip-text';
import { ScopeAccess } from './scope-access';
import { quoted } from './scope-entry-writer';
import { ScopeError } from './scope.errors';
import { ScopeRepository } from './scope.repository';
import { decodeCursor, encodeCursor, type Page, type ScopeAssetView } from './scope-views';

/** Most pairs (or domains) one inventory or resolution report carries. */
export const MAX_ASSETS_PER_REQUEST = 5_000;

export interface AssetReport {
  received: number;
  added: number;
  updated: number;
}

export interface ResolutionReport {
  changed: number;
  unchanged: number;
  unknown: string[];
}

function domainOf(text: string, field: string): string {
  const name = normalizeHostName(text.trim());
  if (!name.ok) {
    throw new ScopeError('scope_asset_invalid', {
      asset: quoted(text),
      problem: `not a host name (${name.problem.replace(/_/g, ' ')})`,
      fields: [{ field, problems: [`not a host name (${name.problem.replace(/_/g, ' ')})`] }],
    });
  }
  return name.ascii;
}

/** A time a scanner reports, no later than now (a clock ahead of ours does not fix the future). */
function reportedTime(text: string | undefined, now: Date): Date {
  if (text === undefined) return now;
  const at = new Date(text);
  return at.getTime() > now.getTime() ? now : at;
}

/**
 * The discovered inventory (docs/findings-service/scope.md#inventory): domain <-> IP pairs a
 * discovery scanner saw, with first and last seen, and which domains stopped or resumed
 * resolving. Reported with `upload_report`; read by anyone with a permission on the project.
 * The inventory never changes the perimeter.
 */
@Injectable()
export class ScopeAssetsService {
  constructor(
    private readonly repository: ScopeRepository,
    private readonly access: ScopeAccess,
    private readonly clock: Clock,
  ) {}

  async report(
    access: AccessContext,
    projectId: string,
    assets: { domain: string; ip: string; seen_at?: string }[],
  ): Promise<AssetReport> {
    await this.access.require(access, projectId, 'upload_report');
    const now = this.clock.now();
    const pairs = assets.map((asset, i) => {
      const ip = parseIp(asset.ip.trim());
      if (!ip) {
        throw new ScopeError('scope_asset_invalid', {
          asset: quoted(`${asset.domain} ${asset.ip}`),
          problem: 'not an IP address',
          fields: [{ field: `assets.${i}.ip`, problems: ['not an IP address'] }],
        });
      }
      return {
        domain: domainOf(asset.domain, `assets.${i}.domain`),
        ip: formatIp(ip),
        seenAt: reportedTime(asset.seen_at, now),
      };
    });
    const counts = await this.repository.upsertAssets(projectId, pairs, labelOf(access));
    return { received: assets.length, ...counts };
  }

  async resolution(
    access: AccessContext,
    projectId: string,
    domains: { domain: string; resolving: boolean; observed_at?: string }[],
  ): Promise<ResolutionReport> {
    await this.access.require(access, projectId, 'upload_report');
    const now = this.clock.now();
    const reports = domains.map((d, i) => ({
      domain: domainOf(d.domain, `domains.${i}.domain`),
      resolving: d.resolving,
      observedAt: reportedTime(d.observed_at, now),
    }));
    const { known, changed } = await this.repository.recordResolution(
      projectId,
      reports,
      labelOf(access),
    );
    const names = [...new Set(reports.map((r) => r.domain))];
    return {
      changed: names.filter((n) => changed.has(n)).length,
      unchanged: names.filter((n) => known.has(n) && !changed.has(n)).length,
      unknown: names.filter((n) => !known.has(n)),
    };
  }

  async list(
    access: AccessContext,
    projectId: string,
    domain: string | undefined,
    page: { cursor?: string; limit: number },
  ): Promise<Page<ScopeAssetView>> {
    await this.access.member(access, projectId);
    const name = domain === undefined ? undefined : domainOf(domain, 'domain');
    const list = `assets:${name ?? ''}`;
    const cursor = page.cursor === undefined ? undefined : decodeCursor(list, page.cursor);
    if (page.cursor !== undefined && !cursor) throw new ScopeError('scope_cursor_invalid');
    const rows = await this.repository.listAssets(projectId, name, cursor, page.limit + 1);
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    return {
      items,
      nextCursor:
        rows.length > page.limit && last
          ? encodeCursor(list, { at: last.cursorAt, id: last.id })
          : null,
    };
  }
}

function labelOf(access: AccessContext): string {
  return access.principal.kind === 'user' ? access.principal.email : access.principal.name;
}
