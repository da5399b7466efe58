/**
 * The audit log's filters, kept in the URL (a link reproduces the view): `action`, `actor`
 * (exact: an e-mail, `API`, `device:<serial>`, `system`), `since`, `until` (days, YYYY-MM-DD,
 * in the browser's time zone; `until` inclusive: the query asks for records before the next
 * day's start). Pure: unit-tested in audit-filters.spec.ts.
 */
import type { paths } from '../../api/schema.gen';

export type AuditQuery = NonNullable<paths['/api/v1/audit']['get']['parameters']['query']>;
export type AuditAction = NonNullable<AuditQuery['action']>;

export interface AuditFilters {
  action?: AuditAction;
  actor?: string;
  since?: string;
  until?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const NAMES = ['action', 'actor', 'since', 'until'] as const;

export function readFilters(search: URLSearchParams): AuditFilters {
  const day = (name: string) => {
    const value = search.get(name) ?? '';
    return DAY.test(value) ? value : undefined;
  };
  return {
    action: (search.get('action') as AuditAction | null) ?? undefined,
    actor: search.get('actor')?.trim() || undefined,
    since: day('since'),
    until: day('until'),
  };
}

export function writeFilters(filters: AuditFilters): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of NAMES) {
    const value = filters[name];
    if (value) out.set(name, value);
  }
  return out;
}

function dayStart(day: string, plusDays = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 0, (m ?? 1) - 1, (d ?? 1) + plusDays).toISOString();
}

export function toQuery(filters: AuditFilters): AuditQuery {
  return {
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.since ? { since: dayStart(filters.since) } : {}),
    ...(filters.until ? { until: dayStart(filters.until, 1) } : {}),
  };
}
