import type { Actor } from '../action-log/finding-action';
import type { SlaResolution, SlaViolationKind } from './sla-violation.entity';

/** A violation as the API shows it (the violation row plus the finding's current title/status). */
export interface SlaViolationView {
  id: string;
  findingId: string;
  findingTitle: string | null;
  findingStatus: string | null;
  projectId: string;
  projectName: string | null;
  productId: string;
  productName: string | null;
  severity: string;
  kind: SlaViolationKind;
  dueAt: Date;
  openedAt: Date;
  notifiedAt: Date | null;
  resolvedAt: Date | null;
  resolution: SlaResolution | null;
  resolvedBy: Actor | null;
  comment: string | null;
  /** `opened_at` in PostgreSQL's text form (keyset cursor, microseconds kept). */
  cursorAt: string;
}

export const SLA_VIOLATION_STATES = ['open', 'resolved', 'all'] as const;
export type SlaViolationState = (typeof SLA_VIOLATION_STATES)[number];

export interface SlaViolationFilters {
  projectIds?: string[];
  productIds?: string[];
  severities?: string[];
  kinds?: SlaViolationKind[];
  state: SlaViolationState;
}

/** Position after the last row of a page. */
export interface SlaViolationCursor {
  openedAt: string;
  id: string;
}
