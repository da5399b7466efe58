import type { CodeFlow, RelatedLocation } from '@platform/report-parsing';
import type { FindingStatus } from './finding-status';

/** A user as the findings API names people (assignee, comment author). */
export interface FindingPerson {
  id: string;
  email: string;
  displayName: string;
}

/**
 * States and origins of a ticket as the findings API shows them (the values modules/tickets
 * stores in `tickets.status` / `tickets.origin`; named here so findings never imports tickets).
 */
export const FINDING_TICKET_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export const FINDING_TICKET_ORIGINS = ['created', 'group', 'linked', 'backfill'] as const;

/** The finding's task in an external tracker (docs/findings-service/tickets.md). */
export interface FindingTicket {
  id: string;
  providerPluginId: string;
  taskId: string;
  taskKey: string;
  url: string;
  status: string;
  rawStatus: string;
  origin: string;
  /** Findings sharing the task; null where the statement did not count them (list rows). */
  findingCount: number | null;
  statusSyncedAt: Date | null;
  /** Why the last service-to-tracker move failed; null once one succeeds. */
  syncError: string | null;
  linkedAt: Date;
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
  /** Its ticket in an external tracker, null without one. */
  ticket: FindingTicket | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  createdAt: Date;
  updatedAt: Date;
  /** The survivor this finding was merged into, and when (docs/findings-service/merge.md). */
  mergedIntoId?: string | null;
  mergedAt?: Date | null;
  /** The suppression rule that suppresses it (docs/findings-service/suppression.md); null: none. */
  suppressionRule?: { id: string; name: string | null; suppressedAt: Date | null } | null;
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
