import type { BrowserContext, Request, TestInfo } from '@playwright/test';

/** What a browser request looked like, as far as the log saw it. */
interface RequestEntry {
  method: string;
  /** Path and query only: the origin is the UI's own (loopback, a port per run). */
  path: string;
  type: string;
  startedAt: number;
  status?: number;
  endedAt?: number;
  failure?: string;
}

/**
 * The browser's requests of one test: the ones still waiting and the last `keep` that ended.
 * Kept for a failed test's report, because a trace without DOM snapshots (the default,
 * E2E_TRACE_SNAPSHOTS) has no network part, and a CI run keeps only its log: the report's
 * first line is the pages' addresses and the requests still open, which the list reporter
 * prints beside the failure.
 */
export class RequestLog {
  private readonly open = new Map<object, RequestEntry>();
  private readonly ended: RequestEntry[] = [];

  constructor(
    private readonly keep = 100,
    private readonly now: () => number = () => Date.now(),
  ) {}

  started(key: object, request: { method: string; url: string; type: string }): void {
    this.open.set(key, {
      method: request.method,
      path: pathOf(request.url),
      type: request.type,
      startedAt: this.now(),
    });
  }

  answered(key: object, status: number): void {
    const entry = this.open.get(key);
    if (entry) entry.status = status;
  }

  finished(key: object, failure?: string): void {
    const entry = this.open.get(key);
    if (!entry) return;
    this.open.delete(key);
    entry.endedAt = this.now();
    if (failure !== undefined) entry.failure = failure;
    this.ended.push(entry);
    if (this.ended.length > this.keep) this.ended.shift();
  }

  /** Plain text: the pages, then every open request (oldest first), then the ended ones. */
  report(pages: string[]): string {
    const at = this.now();
    const open = [...this.open.values()].sort((a, b) => a.startedAt - b.startedAt);
    const lines = [
      `pages: ${pages.map(pathOf).join(' ') || '(none)'}`,
      `open requests: ${open.length}`,
      ...open.map(
        (e) =>
          `  open ${at - e.startedAt} ms ${e.method} ${e.path} (${e.type}${e.status === undefined ? ', no answer' : `, ${e.status}, body not done`})`,
      ),
      `last ${this.ended.length} ended, oldest first:`,
      ...this.ended.map(
        (e) =>
          `  ${(e.endedAt ?? at) - e.startedAt} ms ${e.method} ${e.path} (${e.type}) ${e.failure ?? e.status ?? '?'}`,
      ),
    ];
    return `${lines.join('\n')}\n`;
  }
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:'
      ? `${parsed.pathname}${parsed.search}`
      : url.slice(0, 80);
  } catch {
    return url.slice(0, 80);
  }
}

/** A `RequestLog` fed by every page of `context`. */
export function watchRequests(context: BrowserContext): RequestLog {
  const log = new RequestLog();
  const start = (r: Request) =>
    log.started(r, { method: r.method(), url: r.url(), type: r.resourceType() });
  context.on('request', start);
  context.on('response', (response) => log.answered(response.request(), response.status()));
  context.on('requestfinished', (r) => log.finished(r));
  context.on('requestfailed', (r) => log.finished(r, r.failure()?.errorText ?? 'failed'));
  return log;
}

/**
 * Runs a test (`run`, the fixture's `use`) with its browser requests logged, and attaches the
 * log (`network.txt`) when the test did not end as expected. Both UIs' fixtures use it as an
 * automatic fixture.
 */
export async function keepRequestsOnFailure(
  context: BrowserContext,
  testInfo: TestInfo,
  run: () => Promise<void>,
): Promise<void> {
  const log = watchRequests(context);
  await run();
  if (testInfo.status === testInfo.expectedStatus) return;
  await testInfo.attach('network.txt', {
    body: log.report(context.pages().map((page) => page.url())),
    contentType: 'text/plain',
  });
}
