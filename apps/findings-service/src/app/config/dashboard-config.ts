import type { EnvReader } from '@platform/config';

/**
 * First path segments of the API's own routes (`/api/v1/<segment>/...`): the dashboard tool's
 * segment may not be one of them.
 */
export const RESERVED_API_SEGMENTS = [
  'admin',
  'auth',
  'dashboard',
  'findings',
  'jobs',
  'plugins',
  'products',
  'projects',
  'reports',
  'scanner-callbacks',
  'sla',
  'version',
  'webhooks',
];

const SEGMENT = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * DASHBOARD_TOOL_SEGMENT: the first path segment of the routes for an external dashboard tool
 * (`/api/v1/{segment}/projects/stats`, ...); default `grafana`. One lower-case path segment
 * (letters, digits, `-`, at most 32), not one of the API's own segments.
 */
export function readDashboardToolSegment(r: EnvReader): string {
  const segment = r.string('DASHBOARD_TOOL_SEGMENT', 'grafana');
  if (!SEGMENT.test(segment)) {
    r.problem(
      'DASHBOARD_TOOL_SEGMENT must be one lower-case path segment: a letter, then letters, digits or "-" (at most 32)',
    );
  } else if (RESERVED_API_SEGMENTS.includes(segment)) {
    r.problem(`DASHBOARD_TOOL_SEGMENT must not be "${segment}": the API uses /api/v1/${segment}`);
  }
  return segment;
}
