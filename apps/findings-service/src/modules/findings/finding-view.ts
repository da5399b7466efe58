import type { CodeFlow, RelatedLocation } from '@platform/report-parsing';
import type { FindingStatus } from './finding-status';

/** A user as the findings API names people (assignee, comment author). */
export interface FindingPerson {
  id: string;
  email: string;
  displayName: string;
}

/** A finding as the API shows it (one row of `findings` plus project and product names). */
export interface FindingView {
  id: string;
  projectId: string;
  projectName: string;
  productId: string;
  productName: string;
  identityKind: string;
  ruleId: string;
  ruleName: string | null;
  /** The stored short rule title (null before ingestion wrote one: see ruleTitleOf). */
  ruleTitle: string | null;
  title: string;
  description: string;
  severity: string;
  status: FindingStatus;
  statusChangedAt: Date | null;
  baselineState: string | null;
  kind: string;
  suppressed: boolean;
  host: string | null;
  ip: string | null;
  port: number | null;
  protocol: string | null;
  service: string | null;
  url: string | null;
  filePath: string | null;
  startLine: number | null;
  endLine: number | null;
  snippet: string | null;
  logicalLocation: string | null;
  cve: string | null;
  cwe: string[];
  component: string | null;
  componentVersion: string | null;
  score: number | null;
  scanner: string;
  scannerVersion: string | null;
  revision: string | null;
  tags: string[];
  reportTags: string[];
  enrichmentTags: string[];
  slaDays: number | null;
  /** Remediation clock (docs/findings-service/lifecycle.md): taken into work, paused, deadline. */
  slaStartedAt: Date | null;
  slaPausedAt: Date | null;
  slaDueAt: Date | null;
  assigneeId: string | null;
  /** The assignee's e-mail and display name (null when unassigned or the user is gone). */
  assignee: FindingPerson | null;
  triageComment: string | null;
  riskAcceptedUntil: Date | null;
  waitingReason: string | null;
  waitingUntil: Date | null;
  fingerprints: Record<string, unknown>;
  sources: Record<string, unknown>;
  /** SARIF related locations and code flows as stored by ingestion ([] when none). */
  relatedLocations: RelatedLocation[];
  codeFlows: CodeFlow[];
  firstSeenAt: Date;
  lastSeenAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** The short title a list shows for the finding's rule: stored title, else its name, else its id. */
export function ruleTitleOf(f: Pick<FindingView, 'ruleTitle' | 'ruleName' | 'ruleId'>): string {
  return f.ruleTitle || f.ruleName || f.ruleId;
}

/**
 * The location in one line: `path:line[-end]` (else the logical location), `host:port/protocol`
 * (host, else the IP), or the URL; `''` without any.
 */
export function locationLabelOf(
  f: Pick<
    FindingView,
    | 'filePath'
    | 'startLine'
    | 'endLine'
    | 'logicalLocation'
    | 'host'
    | 'ip'
    | 'port'
    | 'protocol'
    | 'url'
  >,
): string {
  if (f.url) return f.url;
  const host = f.host || f.ip;
  if (host) {
    if (f.port === null) return host;
    const address = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    return `${address}:${f.port}${f.protocol ? `/${f.protocol}` : ''}`;
  }
  const path = f.filePath || f.logicalLocation || '';
  if (!path || f.startLine === null) return path;
  const end = f.endLine !== null && f.endLine !== f.startLine ? `-${f.endLine}` : '';
  return `${path}:${f.startLine}${end}`;
}
