/**
 * The remediation-deadline (SLA) clock of a finding, as SQL over `findings f` (one definition
 * for the single PATCH, the bulk change, the settings change and the hourly check; the rules
 * are in docs/findings-service/lifecycle.md#remediation-deadlines).
 *
 * Columns: `sla_started_at` (taken into work), `sla_paused_at` (stop moment while in a state
 * that cannot breach the deadline), `sla_idle_ms` (idle time of earlier pauses, exact
 * milliseconds), `sla_due_at` (the deadline: started + days + idle; frozen during a pause),
 * `sla_days` (the project's days for the finding's severity).
 *
 * Days are 24-hour days and the idle time is added as milliseconds, so the arithmetic never
 * depends on the session time zone or daylight-saving changes.
 */

/** What a status change does to the clock (the lifecycle maps each target state to one). */
export const CLOCK_EFFECTS = ['start', 'resume', 'pause', 'stop'] as const;
export type ClockEffect = (typeof CLOCK_EFFECTS)[number];

const DAY_MS = 86_400_000;

/** `started + days + idle`, NULL while the clock has not started or the severity has no days. */
export function deadlineSql(started: string, days: string, idleMs: string): string {
  return `CASE WHEN ${started} IS NULL OR ${days} IS NULL THEN NULL
    ELSE ${started} + ((${days}::bigint * ${DAY_MS} + ${idleMs}) * interval '1 millisecond') END`;
}

/** Whole milliseconds from `from` to `to` (both of millisecond precision), never negative. */
function elapsedMsSql(from: string, to: string): string {
  return `GREATEST(0, round(EXTRACT(EPOCH FROM (${to} - ${from})) * 1000))::bigint`;
}

/** Idle time after resuming at `now`: the current pause, if any, is added. */
function resumedIdleSql(now: string): string {
  return `CASE WHEN f.sla_paused_at IS NULL THEN f.sla_idle_ms
    ELSE f.sla_idle_ms + ${elapsedMsSql('f.sla_paused_at', now)} END`;
}

/**
 * The deadline as it stands at `now`: during a pause it keeps moving with the idle time (what
 * a return to work at `now` would give). Written to the action log with each status change.
 */
export function effectiveDeadlineSql(now: string): string {
  return `CASE WHEN f.sla_paused_at IS NULL THEN f.sla_due_at
    ELSE f.sla_due_at + (${elapsedMsSql('f.sla_paused_at', now)} * interval '1 millisecond') END`;
}

/**
 * SET clauses of `UPDATE findings f` applying `effect` at `now` (a `timestamptz` parameter).
 * Every right-hand side reads the row as it was, so the order of the clauses does not matter.
 *
 * - `start` (in_progress): a clock that has not started starts at `now`; a paused one resumes.
 * - `resume` (new, confirmed, renewed): a paused clock resumes, the deadline moving by exactly
 *   the idle time; a running or unstarted clock is left as it is.
 * - `pause` (waiting, risk_accepted, needs_review): a running clock records the stop moment; a
 *   paused one keeps its first stop moment.
 * - `stop` (fixed, wont_fix, false_positive): the clock ends; the next time the finding is
 *   taken into work it starts afresh.
 */
export function clockSetSql(effect: ClockEffect, now: string): string {
  const idle = resumedIdleSql(now);
  switch (effect) {
    case 'stop':
      return 'sla_started_at = NULL, sla_paused_at = NULL, sla_idle_ms = 0, sla_due_at = NULL';
    case 'pause':
      return `sla_paused_at = CASE WHEN f.sla_started_at IS NULL THEN NULL
        ELSE COALESCE(f.sla_paused_at, ${now}) END`;
    case 'resume':
      return `sla_paused_at = NULL, sla_idle_ms = ${idle},
        sla_due_at = ${deadlineSql('f.sla_started_at', 'f.sla_days', idle)}`;
    case 'start': {
      const startedIdle = `CASE WHEN f.sla_started_at IS NULL THEN 0::bigint ELSE ${idle} END`;
      return `sla_started_at = COALESCE(f.sla_started_at, ${now}), sla_paused_at = NULL,
        sla_idle_ms = ${startedIdle},
        sla_due_at = ${deadlineSql(`COALESCE(f.sla_started_at, ${now})`, 'f.sla_days', startedIdle)}`;
    }
  }
}

/**
 * How long before its deadline a running clock counts as approaching: 10 % of the window,
 * at least 24 hours and at most 7 days (7 d → 24 h, 14 d → 33.6 h, 30 d → 72 h, 90 d → 7 d).
 */
export const APPROACH_SHARE = 0.1;
export const APPROACH_MIN_HOURS = 24;
export const APPROACH_MAX_HOURS = 168;

/** The approach lead of `f` as an interval. */
export function approachLeadSql(days: string): string {
  const shareMinutes = Math.round(APPROACH_SHARE * 24 * 60);
  return `GREATEST(interval '${APPROACH_MIN_HOURS} hours',
    LEAST(interval '${APPROACH_MAX_HOURS} hours', ${days} * interval '${shareMinutes} minutes'))`;
}

/** `timestamptz` as JSON text the way the API writes it: `2025-03-01T00:00:00.000Z`. */
export function isoTextSql(expr: string): string {
  return `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
