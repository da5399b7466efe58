import type { FindingStatus } from './finding-status';

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
  triageComment: string | null;
  riskAcceptedUntil: Date | null;
  waitingReason: string | null;
  waitingUntil: Date | null;
  fingerprints: Record<string, unknown>;
  sources: Record<string, unknown>;
  firstSeenAt: Date;
  lastSeenAt: Date;
  createdAt: Date;
  updatedAt: Date;
}
