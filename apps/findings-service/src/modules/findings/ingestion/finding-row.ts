import { identityKind, NormalizedFinding } from '../../ingestion/parsing';

/**
 * One finding as sent to PostgreSQL (keys = columns of the `json_to_recordset` in
 * findings-ingestion.repository.ts). A whole batch travels as one JSON parameter.
 */
export interface FindingRow {
  identity_hash: string;
  identity_kind: string;
  rule_id: string;
  rule_name: string | null;
  title: string;
  description: string;
  severity: string;
  baseline_state: string | null;
  kind: string;
  suppressed: boolean;
  host: string | null;
  ip: string | null;
  port: number | null;
  protocol: string | null;
  service: string | null;
  url: string | null;
  file_path: string | null;
  start_line: number | null;
  end_line: number | null;
  snippet: string | null;
  logical_location: string | null;
  cve: string | null;
  cwe: string[];
  report_tags: string[];
  component: string | null;
  component_version: string | null;
  score: number | null;
  scanner: string;
  scanner_version: string | null;
  revision: string | null;
  fingerprints: Record<string, unknown>;
  properties: Record<string, unknown>;
  /** This scanner's entry of `sources`. */
  source: Record<string, unknown>;
}

export function findingRow(f: NormalizedFinding, seenAt: string): FindingRow {
  const loc = f.location;
  return {
    identity_hash: f.identity,
    identity_kind: identityKind(f),
    rule_id: f.rule_id,
    rule_name: f.rule_name ?? null,
    title: f.title,
    description: f.description,
    severity: f.severity,
    baseline_state: f.baseline_state ?? null,
    kind: f.kind,
    suppressed: f.suppressed,
    host: loc.kind === 'network' ? loc.host : null,
    ip: loc.kind === 'network' ? (loc.ip ?? null) : null,
    port: loc.kind === 'network' ? (loc.port ?? null) : null,
    protocol: loc.kind === 'network' ? (loc.protocol ?? null) : null,
    service: loc.kind === 'network' ? (loc.service ?? null) : null,
    url: loc.kind === 'web' ? loc.url : null,
    file_path: loc.kind === 'file' ? loc.path : null,
    start_line: loc.kind === 'file' ? (loc.start_line ?? null) : null,
    end_line: loc.kind === 'file' ? (loc.end_line ?? null) : null,
    snippet: loc.kind === 'file' ? (loc.snippet ?? null) : null,
    logical_location: f.logical_location ?? null,
    cve: f.cve ?? null,
    cwe: f.cwe,
    report_tags: f.tags,
    component: f.component ?? null,
    component_version: f.component_version ?? null,
    score: f.score ?? null,
    scanner: f.scanner,
    scanner_version: f.scanner_version ?? null,
    revision: f.revision ?? null,
    fingerprints: { ...f.fingerprints },
    properties: f.properties,
    source: {
      scanner: f.scanner,
      scanner_version: f.scanner_version ?? null,
      scanned_at: seenAt,
      rule_id: f.rule_id,
      cve: f.cve ?? null,
      score: f.score ?? null,
      description: f.description,
    },
  };
}

/**
 * One row per identity (the last occurrence wins): a single `INSERT ... ON CONFLICT DO UPDATE`
 * cannot touch the same row twice. Returns the rows and how many duplicates were folded.
 */
export function distinctRows(rows: FindingRow[]): FindingRow[] {
  const byIdentity = new Map<string, FindingRow>();
  for (const row of rows) byIdentity.set(row.identity_hash, row);
  return byIdentity.size === rows.length ? rows : [...byIdentity.values()];
}
