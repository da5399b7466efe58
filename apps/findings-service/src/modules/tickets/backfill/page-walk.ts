import { randomUUID } from 'node:crypto';
import { providerErrorKind } from '../ticket-provider.gateway';
import type { TicketFinding } from '../tickets.repository';
import { TICKET_BACKFILL_FATAL_STREAK } from './ticket-backfill.job';
import type { BackfillCounts } from './ticket-backfills.repository';
import type { WalkSlots } from './walk-slots';

export type Outcome = 'linked' | 'created' | 'skipped';

/** Provider error kinds that no later finding can fix: three in a row stop the backfill. */
const FATAL_KINDS = new Set(['unauthorized', 'misconfigured']);

/** What the pages of one walk share. */
export interface WalkState {
  counts: BackfillCounts;
  /** Fatal provider errors in a row (in the order the answers came). */
  streak: number;
  /** A finding went through (any outcome): the walk may have several under way from now on. */
  open: boolean;
}

/** The end of a page: the cursor to resume after, and an error that is not the provider's. */
export interface PageEnd {
  cursor: string | null;
  error?: unknown;
}

/**
 * A page's findings in id order, each through `one` (its lane's plugin event given), by up to
 * `slots.size` lanes, each finding holding one of `slots` while under way. Until a finding of
 * the walk has gone through, one lane walks alone (a tracker refusing every call meets the
 * fatal streak one finding after another, as a sequential walk would). New findings are no
 * longer taken after the fatal streak or an error that is not the provider's; the ones under
 * way end. The cursor is the last finding of the unbroken run of walked ones from the page's
 * start.
 */
export async function walkPage(
  walk: WalkState,
  findings: TicketFinding[],
  slots: WalkSlots,
  one: (finding: TicketFinding, eventId: string) => Promise<Outcome>,
): Promise<PageEnd> {
  const walked = findings.map(() => false);
  let next = 0;
  let error: unknown;
  let stop = false;
  let openLanes: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (openLanes = resolve));
  if (walk.open) openLanes();

  const take = async (eventId: string): Promise<boolean> => {
    const release = await slots.take();
    if (stop || next >= findings.length) {
      release();
      return false;
    }
    const index = next++;
    try {
      walk.counts[await one(findings[index] as TicketFinding, eventId)] += 1;
      walk.streak = 0;
      walk.open = true;
      openLanes();
    } catch (thrown) {
      const kind = providerErrorKind(thrown);
      if (kind === null) {
        stop = true;
        error ??= thrown;
        return false;
      }
      walk.counts.failed += 1;
      walk.streak = FATAL_KINDS.has(kind) ? walk.streak + 1 : 0;
      if (walk.streak >= TICKET_BACKFILL_FATAL_STREAK) stop = true;
    } finally {
      release();
    }
    walk.counts.done += 1;
    walked[index] = true;
    return true;
  };
  const lane = async (n: number) => {
    const eventId = `ticket-backfill:${randomUUID()}`;
    if (n > 0) await opened;
    try {
      while (!stop && next < findings.length && (await take(eventId)));
    } finally {
      if (n === 0) openLanes(); // the page is over: lanes still waiting end
    }
  };
  const lanes = Math.max(1, Math.min(slots.size, findings.length));
  await Promise.all(Array.from({ length: lanes }, (_, n) => lane(n)));
  const prefix = walked.indexOf(false);
  const last = prefix === -1 ? findings.length - 1 : prefix - 1;
  return { cursor: last >= 0 ? (findings[last] as TicketFinding).id : null, error };
}
