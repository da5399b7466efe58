import { FINDING_STATUS_GROUPS, type FindingStatus } from '../../findings/finding-status';
import type { TicketStatus } from '../tickets.entities';

const ATTENTION: readonly string[] = FINDING_STATUS_GROUPS.attention;

/**
 * The tracker state a task should be in, from the states of its findings (one, or a group's;
 * docs/findings-service/tickets.md, "Service to tracker"):
 * - some finding still needs attention → `in_progress` when one of those is being worked on
 *   (`in_progress`), else `open`;
 * - none needs attention → `resolved` when one was fixed, else `closed` (false positives,
 *   accepted risks and won't-fix: nothing will be done). A group's task thus resolves only
 *   once all its findings are closed, and reopens when any reopens.
 * Null for a task without findings (they were deleted): nothing to say.
 */
export function wantedTrackerStatus(findings: readonly FindingStatus[]): TicketStatus | null {
  if (findings.length === 0) return null;
  const attention = findings.filter((s) => ATTENTION.includes(s));
  if (attention.length > 0) {
    return attention.includes('in_progress') ? 'in_progress' : 'open';
  }
  return findings.includes('fixed') ? 'resolved' : 'closed';
}

type Stage = 'todo' | 'doing' | 'done';
const STAGE: Record<TicketStatus, Stage> = {
  open: 'todo',
  in_progress: 'doing',
  resolved: 'done',
  closed: 'done',
};

/**
 * Whether the task moves, given what the service last knew of it: never to the stage it is
 * already in (`resolved` and `closed` are one stage: a tracker may have one done state only),
 * and never from `in_progress` back to `open` — a finding's triage (`new` → `confirmed`) does
 * not undo a developer's start of work. Everything else moves: done when the findings are
 * closed, reopened when one comes back, started when one is being worked on.
 */
export function trackerMove(
  stored: TicketStatus,
  wanted: TicketStatus | null,
): TicketStatus | null {
  if (wanted === null || STAGE[stored] === STAGE[wanted]) return null;
  if (stored === 'in_progress' && wanted === 'open') return null;
  return wanted;
}

/** The WIT `task-status` case of a stored status. */
export const WIT_TASK_STATUS: Record<TicketStatus, string> = {
  open: 'open',
  in_progress: 'in-progress',
  resolved: 'resolved',
  closed: 'closed',
};

/** The comment the sync adds to the task: what moved it, never anything secret. */
export function syncComment(findings: readonly FindingStatus[], moved: TicketStatus): string {
  const counts = new Map<string, number>();
  for (const s of findings) counts.set(s, (counts.get(s) ?? 0) + 1);
  const states = [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => (findings.length === 1 ? s : `${n} ${s}`))
    .join(', ');
  const subject =
    findings.length === 1
      ? `The finding is now ${states}`
      : `Its ${findings.length} findings are now ${states}`;
  return `${subject}: the findings service moved this task to ${moved.replace('_', ' ')}.`;
}
