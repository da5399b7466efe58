import type { ReportRunInfo } from '@platform/report-parsing';

/**
 * One run of a report as `reports.coverage` stores it (an array, one per run, in run order):
 * what the run says it looked at (the parser's RunCoverage) and how many of its results were
 * not stored. Written once, with the report's completion; read by the automatic closure
 * (docs/findings-service/auto-closure.md); not part of the report API.
 */
export interface ReportRunCoverage {
  scanner: string;
  /** The tool did not finish, or a list was cut: absence cannot be decided for this run. */
  incomplete: boolean;
  files: string[];
  failed_files: string[];
  hosts: string[];
  /** Results of this run that were not stored (a run with any cannot decide absence). */
  skipped: number;
}

/** The stored form of a run's coverage, before its skipped results are counted. */
export function runCoverageOf(run: ReportRunInfo): ReportRunCoverage {
  return {
    scanner: run.scanner,
    incomplete: run.coverage.incomplete,
    files: run.coverage.files,
    failed_files: run.coverage.failedFiles,
    hosts: run.coverage.hosts,
    skipped: 0,
  };
}
