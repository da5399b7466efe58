import type { IgnoredValues, ResultWarnings } from '@platform/report-parsing';
import type { StagedBatch, StagedFacts } from './finding-row';

/** Remediation days per severity from the project settings (null: no deadline). */
export type SlaDays = Record<'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' | 'INFO', number | null>;

/** Where a batch lands and what the report says about itself. */
export interface BatchTarget {
  reportId: string;
  productId: string;
  projectId: string;
  /** The report's upload time: last seen / scan time of every finding (same on a retry). */
  seenAt: Date;
  sla: SlaDays;
  /**
   * The project's enabled suppression rules, read once per job (modules/suppression): per
   * batch, the statements that apply those its rows can meet to inserted findings
   * (undefined: the plain statements).
   */
  suppression?: BatchSuppression;
  /**
   * Set when the product had no findings as the report started (productIsEmpty): its batches are
   * plainly inserted (INSERT_NEW) until one meets an identity the product has, which clears
   * `insertOnly` for the rest of the report (that batch is upserted instead).
   */
  firstIngest?: { insertOnly: boolean };
}

/**
 * A batch's statements with the suppression rules: the upsert (its rules' parameters after
 * UPSERT's ten) and the plain insert of a first ingest (after INSERT_NEW's nine), each with the
 * name it is prepared under on a connection (undefined: sent unnamed, planned each time).
 */
export interface SuppressingStatements {
  upsert: { text: string; name?: string; params: unknown[] };
  insertNew: { text: string; name?: string; params: unknown[] };
}

/** The suppression rules' statements for a batch, given what its rows hold (all rules without facts). */
export interface BatchSuppression {
  forBatch(facts: StagedFacts | undefined): SuppressingStatements | undefined;
}

export interface BatchCounts {
  new: number;
  updated: number;
  renewed: number;
}

export interface BatchMeta {
  index: number;
  /** Results of the batch before duplicates were folded. */
  results: number;
  format: string;
  scanner: string;
  scannerVersion: string | null;
  revision: string | null;
  /** Results skipped since the previous batch (not stored), per warning code. */
  skipped?: ResultWarnings;
  /** Findings of the batch stored without a value of theirs, per code (codes disjoint). */
  ignored?: IgnoredValues;
}

/**
 * Unchanged re-sightings of a batch (`finding_id \t content_digest` lines) and how to get
 * full rows for those whose finding changed since the memo was read.
 */
export interface ResightedBatch {
  staged: StagedBatch;
  normalizeAfterAll(findingIds: string[]): Promise<StagedBatch>;
}

export type BatchOutcome =
  { kind: 'written'; counts: BatchCounts } | { kind: 'skipped' } | { kind: 'cancelled' };
