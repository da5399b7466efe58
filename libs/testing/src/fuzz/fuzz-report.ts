import { appendFileSync } from 'node:fs';
import type { FuzzFailure, FuzzResult } from './fuzz-runner';

/** Server log text of a request (message line, then stack lines), if the service logged one. */
export type ServerLogLookup = (requestId: string) => string | undefined;

export interface FailureGroup {
  kind: FuzzFailure['kind'];
  cause: string;
  count: number;
  routes: string[];
  variants: string[];
  first: FuzzFailure;
  serverLog?: string;
}

const ID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|fuzz-\d+-\d+/gi;

/** The message and the first frame in the project's own code (else the first frame). */
export function logCause(log: string): string {
  const [message = '', ...frames] = log.split('\n').map((l) => l.trim());
  const own = frames.find((f) => /\/(apps|libs)\//.test(f)) ?? frames[0] ?? '';
  return `${message} ${own}`.replace(ID_PATTERN, '<id>').trim();
}

/** The error code an answer carried (`code` field), if any. */
function answerCode(failure: FuzzFailure): string {
  const match = /\\?"code\\?":\\?"([^"\\]+)/.exec(failure.responseBody);
  return match?.[1] ?? 'no code';
}

function causeOf(f: FuzzFailure, log: string | undefined): string {
  switch (f.kind) {
    case 'server-error':
      return log ? logCause(log) : `${f.status} ${answerCode(f)} (no server log line)`;
    case 'envelope':
      return `${f.status}: ${f.detail}; answer ${f.responseBody.slice(0, 120)}`;
    case 'stored-change':
      return `${f.route} ${f.status} ${answerCode(f)}: ${f.detail}`;
    case 'transport':
      return `${f.route}: ${f.detail}`;
  }
}

/** Failures grouped by root cause: the server's logged error, or what was wrong. */
export function groupFailures(
  failures: FuzzFailure[],
  serverLog: ServerLogLookup = () => undefined,
): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const f of failures) {
    const log = serverLog(f.requestId);
    const cause = causeOf(f, log);
    const key = `${f.kind} ${cause}`;
    const group = groups.get(key) ?? {
      kind: f.kind,
      cause,
      count: 0,
      routes: [],
      variants: [],
      first: f,
      serverLog: log,
    };
    group.count++;
    if (!group.routes.includes(f.route)) group.routes.push(f.route);
    if (group.variants.length < 20 && !group.variants.includes(f.variant)) {
      group.variants.push(f.variant);
    }
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

export function reproduceCommand(result: FuzzResult, specPath: string): string {
  const { seed, size, requests } = result.settings;
  return `FUZZ_SEED=${seed} FUZZ_SIZE=${size} FUZZ_REQUESTS=${requests} npm test -- ${specPath}`;
}

function firstLines(log: string, count: number): string {
  return log.split('\n').slice(0, count).join(' | ');
}

function describeFailure(f: FuzzFailure, serverLog?: string): string {
  const lines = [
    `  [${f.kind}] ${f.status || 'no answer'} ${f.method} ${f.path}`,
    `      route ${f.route} | role ${f.role} | variant ${f.variant} | request id ${f.requestId}`,
    `      request body: ${f.requestBody || '(none)'}`,
    `      answer: ${f.responseBody || '(empty)'}`,
    `      ${f.detail}`,
  ];
  if (serverLog) lines.push(`      server log: ${firstLines(serverLog, 4)}`);
  return lines.join('\n');
}

/** The printed summary: size, routes covered, status histogram and every failure. */
export function formatFuzzResult(
  result: FuzzResult,
  specPath: string,
  serverLog: ServerLogLookup = () => undefined,
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
  const { timings } = result;
  const lines = [
    `[fuzz] ${result.service}: seed ${result.settings.seed}, size ${result.settings.size}, ` +
      `${result.requests} requests in ${result.seconds.toFixed(1)} s (sending ` +
      `${timings.requests.toFixed(1)} s, digests ${timings.digests.toFixed(1)} s, ` +
      `fixtures ${timings.fixtures.toFixed(1)} s)`,
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

/** Markdown section of a run's failures grouped by root cause (for a written report). */
export function formatFailureGroups(
  result: FuzzResult,
  specPath: string,
  serverLog: ServerLogLookup = () => undefined,
): string {
  const groups = groupFailures(result.failures, serverLog);
  const lines = [
    `## ${result.service}: ${groups.length} root causes, ${result.failures.length} failures`,
    '',
    `${result.requests} requests, seed ${result.settings.seed}, size ${result.settings.size}; ` +
      `reproduce with \`${reproduceCommand(result, specPath)}\`.`,
    '',
  ];
  groups.forEach((g, i) => {
    const f = g.first;
    lines.push(
      `### ${i + 1}. ${g.kind}: ${g.cause.slice(0, 200)}`,
      '',
      `- ${g.count} failures on ${g.routes.length} routes: ${g.routes.join(', ')}`,
      `- variants: ${g.variants.join('; ')}`,
      `- example: ${f.status || 'no answer'} ${f.method} \`${f.path}\` as ${f.role}, ` +
        `body \`${f.requestBody.slice(0, 160) || '(none)'}\``,
      `- answer: \`${f.responseBody.slice(0, 200) || '(empty)'}\``,
    );
    if (g.serverLog) lines.push(`- server log: \`${firstLines(g.serverLog, 5)}\``);
    lines.push('');
  });
  return lines.join('\n');
}

/** With FUZZ_REPORT naming a file, appends the run's failures grouped by root cause to it. */
export function appendFuzzReport(
  result: FuzzResult,
  specPath: string,
  serverLog: ServerLogLookup,
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (env.FUZZ_REPORT) {
    appendFileSync(env.FUZZ_REPORT, formatFailureGroups(result, specPath, serverLog));
  }
}

/** Routes of the document no request was sent to. */
export function unsentRoutes(result: FuzzResult): string[] {
  return result.routes.filter((r) => r.sent === 0).map((r) => r.route);
}

/** One line per root cause: `3x server-error: <cause> (<routes>)`. */
export function failureSummary(result: FuzzResult, serverLog: ServerLogLookup): string[] {
  return groupFailures(result.failures, serverLog).map(
    (g) => `${g.count}x ${g.kind}: ${g.cause} (${g.routes.join(', ')})`,
  );
}
