/**
 * What the finding page says about the automatic closure (GET /findings/{id}/auto-closure), as
 * message keys and their parameters: the state in one sentence, the skipped last check of the
 * product, and the evidence of a closure (from the view or from the action-log entry, where
 * it arrives as an untyped object and is read defensively).
 */
import type { Schemas } from '../../api/client';
import type { MessageKey } from '../../i18n/en';

export type AutoClosureView = Schemas['AutoClosureViewDto'];

export interface Sentence {
  key: MessageKey;
  params: Record<string, string | number>;
}

/** The state in one sentence; `at` params are ISO times the caller formats. */
export function stateSentence(view: AutoClosureView): Sentence {
  const counts = { n: view.consecutive_absent, required: view.required_checks };
  switch (view.state) {
    case 'disabled': {
      const { feature, project } = view.switches;
      const key: MessageKey =
        !feature && !project
          ? 'autoClosure.disabledBoth'
          : !feature
            ? 'autoClosure.disabledFeature'
            : 'autoClosure.disabledProject';
      return { key, params: {} };
    }
    case 'closed':
      return { key: 'autoClosure.closed', params: { at: view.closure?.closed_at ?? '' } };
    case 'not_applicable':
      return { key: 'autoClosure.notApplicable', params: {} };
    case 'not_tracked':
      return { key: 'autoClosure.notTracked', params: {} };
    case 'counting':
      return { key: 'autoClosure.counting', params: counts };
    case 'awaiting_confirmation':
      return view.reverification_requested_at
        ? {
            key: 'autoClosure.awaitingConfirmation',
            params: { ...counts, at: view.reverification_requested_at },
          }
        : { key: 'autoClosure.awaitingConfirmationNotAsked', params: counts };
    case 'awaiting_cap':
      return {
        key: 'autoClosure.awaitingCap',
        params: { max: view.max_per_hour, used: view.closed_last_hour },
      };
    case 'eligible':
      return { key: 'autoClosure.eligible', params: counts };
  }
}

/** Why the product's latest check counted nothing (skipped: which switch), or that one runs. */
export function productCheckSentence(view: AutoClosureView): Sentence | undefined {
  const check = view.last_product_check;
  if (!check) return undefined;
  if (check.state === 'running') {
    return { key: 'autoClosure.productCheckRunning', params: { report: check.report_id } };
  }
  if (check.state !== 'skipped') return undefined;
  const key: MessageKey =
    check.reason === 'feature_off'
      ? 'autoClosure.skippedFeatureOff'
      : check.reason === 'project_off'
        ? 'autoClosure.skippedProjectOff'
        : 'autoClosure.skipped';
  return { key, params: { report: check.report_id, reason: check.reason ?? '' } };
}

/** The evidence of an automatic closure (`auto_closures.evidence`, the log entry's `to.evidence`). */
export interface ClosureEvidence {
  checks: number | null;
  requiredChecks: number | null;
  reports: string[];
  confirmation: {
    result: string | null;
    at: string | null;
    keyId: string | null;
    origin: string | null;
  } | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

/** The evidence object read field by field; undefined when `value` is not an object. */
export function closureEvidence(value: unknown): ClosureEvidence | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const e = value as Record<string, unknown>;
  const c = e['confirmation'];
  const confirmation =
    typeof c === 'object' && c !== null && !Array.isArray(c)
      ? (c as Record<string, unknown>)
      : undefined;
  return {
    checks: count(e['checks']),
    requiredChecks: count(e['required_checks']),
    reports: Array.isArray(e['reports'])
      ? e['reports'].filter((r): r is string => typeof r === 'string')
      : [],
    confirmation: confirmation
      ? {
          result: text(confirmation['result']),
          at: text(confirmation['at']),
          keyId: text(confirmation['key_id']),
          origin: text(confirmation['origin']),
        }
      : null,
  };
}
