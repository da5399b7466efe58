/**
 * The requests queue's filters, kept in the URL (a link reproduces the view): `status`
 * (default `pending`; `all` for every status), `purpose`, `serial`, `since`, `until` (days,
 * YYYY-MM-DD, in the browser's time zone; `until` is exclusive of the day after).
 */
import type { paths } from '../../api/schema.gen';

export type ListQuery = NonNullable<paths['/api/v1/requests']['get']['parameters']['query']>;
export type RequestStatus = NonNullable<ListQuery['status']>;
export type Purpose = NonNullable<ListQuery['purpose']>;

export interface RequestFilters {
  status: RequestStatus | 'all';
  purpose?: Purpose;
  serial?: string;
  since?: string;
  until?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readFilters(search: URLSearchParams): RequestFilters {
  const day = (name: string) => {
    const value = search.get(name) ?? '';
    return DAY.test(value) ? value : undefined;
  };
  return {
    status: (search.get('status') as RequestFilters['status'] | null) ?? 'pending',
    purpose: (search.get('purpose') as Purpose | null) ?? undefined,
    serial: search.get('serial')?.trim() || undefined,
    since: day('since'),
    until: day('until'),
  };
}

export function writeFilters(filters: RequestFilters): URLSearchParams {
  const out = new URLSearchParams();
  if (filters.status !== 'pending') out.set('status', filters.status);
  for (const name of ['purpose', 'serial', 'since', 'until'] as const) {
    const value = filters[name];
    if (value) out.set(name, value);
  }
  return out;
}

/** The start of a day in the browser's time zone, as the API's ISO 8601 date-time. */
function dayStart(day: string, plusDays = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 0, (m ?? 1) - 1, (d ?? 1) + plusDays).toISOString();
}

/** The list route's query for `filters` (page and limit added by the caller). */
export function toQuery(filters: RequestFilters): ListQuery {
  return {
    ...(filters.status !== 'all' ? { status: filters.status } : {}),
    ...(filters.purpose ? { purpose: filters.purpose } : {}),
    ...(filters.serial ? { serial: filters.serial } : {}),
    ...(filters.since ? { since: dayStart(filters.since) } : {}),
    // `until` is "created before": the whole chosen day is in.
    ...(filters.until ? { until: dayStart(filters.until, 1) } : {}),
  };
}
