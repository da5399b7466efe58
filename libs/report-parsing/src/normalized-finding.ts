import type { IgnoredValues, ResultWarnings } from './result-warnings';

/** Severity of a normalized finding, highest first. */
export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** SARIF `result.kind` values (SARIF 2.1.0 §3.27.9); `fail` is the SARIF default. */
export const RESULT_KINDS = [
  'pass',
  'open',
  'informational',
  'notApplicable',
  'review',
  'fail',
] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

/** SARIF `result.baselineState` values. */
export const BASELINE_STATES = ['new', 'unchanged', 'updated', 'absent'] as const;
export type BaselineState = (typeof BASELINE_STATES)[number];

export interface FileLocation {
  kind: 'file';
  /** Normalized, `/`-separated path, relative to the checkout root when the report says so. */
  path: string;
  start_line?: number;
  end_line?: number;
  snippet?: string;
}

export interface NetworkLocation {
  kind: 'network';
  host: string;
  port?: number;
  protocol?: string;
  ip?: string;
  service?: string;
}

export interface WebLocation {
  kind: 'web';
  url: string;
}

export type FindingLocation = FileLocation | NetworkLocation | WebLocation;

/**
 * A place a scanner points at besides the finding's own location (SARIF `relatedLocations`,
 * the steps of `codeFlows`): a file path (normalized as finding paths are) with lines, a web
 * address, or only a logical location; its message when the report gives one.
 */
export interface FlowLocation {
  path?: string;
  url?: string;
  start_line?: number;
  end_line?: number;
  /** Fully qualified logical location (function, class), when the report gives one. */
  logical?: string;
  message?: string;
}

/** A related location; `id` is what the result's message links to (`[text](id)`). */
export interface RelatedLocation extends FlowLocation {
  id?: number;
}

/** One step of a thread flow; `step` is its 1-based position in the flow. */
export interface CodeFlowStep extends FlowLocation {
  step: number;
}

export interface ThreadFlow {
  message?: string;
  steps: CodeFlowStep[];
}

/** A SARIF code flow (data-flow path): its thread flows, each an ordered list of steps. */
export interface CodeFlow {
  message?: string;
  thread_flows: ThreadFlow[];
}

/**
 * Where the severity came from (debugging aid, shown in tests and logs). `level_default`: SARIF's
 * effective level of a `fail` result that has no level and whose rule has none (`warning`,
 * SARIF 2.1.0 §3.27.10); `kind_not_fail`: a result of another kind without a level (`none`).
 */
export type SeveritySource =
  | 'result_properties'
  | 'rule_properties'
  | 'result_level'
  | 'rule_level'
  | 'level_default'
  | 'kind_not_fail'
  | 'default';

export interface FindingFingerprints {
  fingerprints: Record<string, string>;
  partial_fingerprints: Record<string, string>;
}

/** Report-independent form of one result; the unit that ingestion upserts. */
export interface NormalizedFinding {
  rule_id: string;
  rule_name?: string;
  /**
   * Short title of the rule, never the result's message: SARIF the rule's `shortDescription`
   * (first line), else its `name`; SonarQube the rule name. At most 200 characters.
   */
  rule_title?: string;
  title: string;
  description: string;
  severity: Severity;
  severity_source: SeveritySource;
  location: FindingLocation;
  /** Fully qualified logical location (function, class), when the report gives one. */
  logical_location?: string;
  cve?: string;
  /** See IdentityInput.discriminator (SonarQube issues without a line). */
  discriminator?: string;
  cwe: string[];
  tags: string[];
  component?: string;
  component_version?: string;
  scanner: string;
  scanner_version?: string;
  revision?: string;
  baseline_state?: BaselineState;
  suppressed: boolean;
  kind: ResultKind;
  fingerprints: FindingFingerprints;
  /** CVSS base score (0-10) when the report carries one. */
  score?: number;
  /** SARIF `relatedLocations`, capped (sarif-flows.ts). */
  related_locations?: RelatedLocation[];
  /** SARIF `codeFlows`, capped (sarif-flows.ts). */
  code_flows?: CodeFlow[];
  /** Small subset of the raw result properties (bounded size), kept for display. */
  properties: Record<string, unknown>;
  /** Hex SHA-256 identity (see finding-identity.ts); product scoping is the DB key. */
  identity: string;
  /** Digest of the raw result and its run context (result-digest.ts), when it was read raw. */
  content_digest?: string;
}

/**
 * A result whose content digest matched the last sighting of a known finding (ResultMemo): it
 * is the same normalized finding, so it was neither parsed nor normalized again.
 */
export interface ResightedFinding {
  finding_id: string;
  content_digest: string;
  /**
   * Parses and normalizes the result after all: the finding changed since the memo was read
   * (another report of the product, a deletion), so it cannot simply be marked seen.
   */
  normalize(): NormalizedFinding;
}

/** Upload parameters used when the report lacks the information. */
export interface UploadDefaults {
  engine?: string;
  engine_version?: string;
  commit_id?: string;
}

/** Per-run information yielded with every batch. */
export interface ReportRunInfo {
  format: 'sarif' | 'sonarqube';
  run_index: number;
  scanner: string;
  scanner_version?: string;
  revision?: string;
  /** What the run says it looked at, besides its results (docs/findings-service/auto-closure.md). */
  coverage: RunCoverage;
}

/**
 * What a run lists as looked at, from its metadata (sarif.md and sonarqube.md, Coverage). Paths
 * and hosts are spelled as finding paths and hosts are, so they compare as they are.
 */
export interface RunCoverage {
  /** An invocation says the tool did not finish (`executionSuccessful: false`): absence cannot be decided for this run. */
  incomplete: boolean;
  /** Normalized paths (exactly as finding file paths are normalized, uriBaseId resolved) of the files the run lists as scanned: SARIF `run.artifacts[].location` (all artifacts that are files, not http(s)/tcp/udp URIs); SonarQube `components[]` that are files (have a path / qualifier FIL or UTS). Capped at MAX_COVERAGE_ENTRIES; if the cap is hit set `incomplete`. */
  files: string[];
  /** Normalized paths named by error-level `invocations[].toolExecutionNotifications` (their `locations`) — the tool failed on them. */
  failedFiles: string[];
  /** Hosts (lower-case name or IP) of network/web artifacts the run lists (`tcp://`, `udp://`, `http(s)://` artifact URIs). */
  hosts: string[];
}

/**
 * One batch of results, all of one run: normalized findings plus, when a ResultMemo was
 * given, the results recognized as unchanged re-sightings. The batch boundaries count both,
 * so they do not depend on the memo (resumed ingestions rely on that). `skipped` counts the
 * results of this run read since its previous batch that could not be stored (they do not
 * count towards the batch size); a run whose last results are all skipped ends with a batch of
 * only those. `ignored` counts the findings of this batch that were stored without a value of
 * theirs (or with it read as its equivalent), per code: they are in `findings`, never skipped.
 */
export interface FindingBatch {
  run: ReportRunInfo;
  findings: NormalizedFinding[];
  resighted: ResightedFinding[];
  skipped: ResultWarnings;
  ignored: IgnoredValues;
}
