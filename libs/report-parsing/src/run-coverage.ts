import type { RunCoverage } from './normalized-finding';

/** Entries per coverage list (files, failed files, hosts); past it the run is `incomplete`. */
export const MAX_COVERAGE_ENTRIES = 200_000;

/** Host of an `http(s)://`, `tcp://` or `udp://` URI, lower-cased (IPv6 keeps its brackets). */
const NETWORK_URI = /^(?:https?|tcp|udp):\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i;

/** The host an artifact URI names when it is a web or network address, else undefined. */
export function coverageHost(uri: string): string | undefined {
  const host = NETWORK_URI.exec(uri.trim())?.[1];
  return host === undefined || host === '' ? undefined : host.toLowerCase();
}

/**
 * Builds one run's RunCoverage: de-duplicated lists in first-seen order, each capped at
 * MAX_COVERAGE_ENTRIES (a list that reaches the cap makes the run `incomplete`: it may list
 * less than the run looked at).
 */
export class CoverageCollector {
  private incomplete = false;
  private readonly files = new Set<string>();
  private readonly failedFiles = new Set<string>();
  private readonly hosts = new Set<string>();

  /** The run says it did not finish. */
  markIncomplete(): void {
    this.incomplete = true;
  }

  file(path: string): void {
    this.add(this.files, path);
  }

  failedFile(path: string): void {
    this.add(this.failedFiles, path);
  }

  host(host: string): void {
    this.add(this.hosts, host);
  }

  result(): RunCoverage {
    return {
      incomplete: this.incomplete,
      files: [...this.files],
      failedFiles: [...this.failedFiles],
      hosts: [...this.hosts],
    };
  }

  private add(list: Set<string>, entry: string): void {
    if (entry === '' || list.has(entry)) return;
    if (list.size >= MAX_COVERAGE_ENTRIES) {
      this.incomplete = true;
      return;
    }
    list.add(entry);
  }
}
