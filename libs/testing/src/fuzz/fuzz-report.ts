import type { FuzzFailure, FuzzResult } from './fuzz-runner';

export interface FailureGroup {
  key: string;
  kind: FuzzFailure['kind'];
  route: string;
  status: number;
  count: number;
  variants: string[];
  first: FuzzFailure;
}

/** The error code an answer carried (`code` field), if any: close to the root cause. */
function answerCode(failure: FuzzFailure): string {
  const match = /\\?"code\\?":\\?"([^"\\]+)/.exec(failure.responseBody);
  return match?.[1] ?? '-';
}

/** Failures grouped by kind, route, status and answered code. */
export function groupFailures(failures: FuzzFailure[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const f of failures) {
    const key = `${f.kind} ${f.route} ${f.status} ${answerCode(f)} ${f.kind === 'stored-change' ? f.detail : ''}`;
    const group = groups.get(key);
    if (group) {
      group.count++;
      if (group.variants.length < 12 && !group.variants.includes(f.variant)) {
        group.variants.push(f.variant);
      }
    } else {
      groups.set(key, {
        key,
        kind: f.kind,
        route: f.route,
        status: f.status,
        count: 1,
        variants: [f.variant],
        first: f,
      });
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

export function reproduceCommand(result: FuzzResult, specPath: string): string {
  const { seed, size, requests } = result.settings;
  return `FUZZ_SEED=${seed} FUZZ_SIZE=${size} FUZZ_REQUESTS=${requests} npm test -- ${specPath}`;
}

function describeFailure(f: FuzzFailure, serverLog?: string): string {
  const lines = [
    `  [${f.kind}] ${f.status || 'no answer'} ${f.method} ${f.path}`,
    `      route ${f.route} | role ${f.role} | variant ${f.variant} | request id ${f.requestId}`,
    `      request body: ${f.requestBody || '(none)'}`,
    `      answer: ${f.responseBody || '(empty)'}`,
    `      ${f.detail}`,
  ];
  if (serverLog) lines.push(`      server log: ${serverLog}`);
  return lines.join('\n');
}

/** The printed summary: size, routes covered, status histogram and every failure. */
export function formatFuzzResult(
  result: FuzzResult,
  specPath: string,
  serverLog: (requestId: string) => string | undefined = () => undefined,
): string {
  const covered = result.routes.filter((r) => r.sent > 0);
  const reached = result.routes.filter((r) => r.reached > 0);
  const notReached = result.routes.filter((r) => r.reached === 0).map((r) => r.route);
  const histogram = Object.entries(result.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  const byKind = new Map<string, number>();
  for (const f of result.failures) byKind.set(f.kind, (byKind.get(f.kind) ?? 0) + 1);
  const lines = [
    `[fuzz] ${result.service}: seed ${result.settings.seed}, size ${result.settings.size}, ` +
      `${result.requests} requests in ${result.seconds.toFixed(1)} s (requests ` +
      `${result.timings.requests.toFixed(1)} s, digests ${result.timings.digests.toFixed(1)} s, ` +
      `fixtures ${result.timings.fixtures.toFixed(1)} s)`,
    `[fuzz] reproduce: ${reproduceCommand(result, specPath)}`,
    `[fuzz] routes covered ${covered.length}/${result.routes.length}, ` +
      `past authentication and lookup ${reached.length}/${result.routes.length}` +
      (notReached.length > 0 ? ` (not past: ${notReached.join(', ')})` : ''),
    `[fuzz] statuses: ${histogram}`,
    `[fuzz] slowest: ${result.slowest.map((c) => `${c.route} ${c.variant} ${Math.round(c.ms)} ms`).join('; ')}`,
    `[fuzz] failures: ${result.failures.length}` +
      (byKind.size > 0 ? ` (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')})` : ''),
  ];
  for (const f of result.failures) lines.push(describeFailure(f, serverLog(f.requestId)));
  return lines.join('\n');
}
