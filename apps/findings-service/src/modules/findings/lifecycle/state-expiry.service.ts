import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../app/clock';
import { systemActor } from '../../action-log/finding-action';
import {
  CLOCK_EFFECT_OF,
  CLOSING_STATES,
  PERIODIC_TRANSITIONS,
  type DueField,
  type TypicalTransition,
} from './finding-lifecycle';
import { EXPIRY_CHUNK, StateExpiryRepository } from './state-expiry.repository';

/** A periodic transition of the lifecycle table with the name of its task. */
export interface ExpiryTransition extends TypicalTransition {
  dueField: DueField;
  /** Task name, also the `system` actor's label in the action log. */
  task: string;
}

const TASK_NAMES: Record<DueField, string> = {
  risk_accepted_until: 'risk-acceptance-expiry',
  waiting_until: 'waiting-expiry',
};

/** `risk_accepted` past its review date and `waiting` past its date, each → `needs_review`. */
export const EXPIRY_TRANSITIONS: readonly ExpiryTransition[] = PERIODIC_TRANSITIONS.map((t) => ({
  ...t,
  task: TASK_NAMES[t.dueField],
}));

/**
 * Runs the lifecycle's periodic transitions (worker, leader only): every finding whose date
 * has passed moves to `needs_review` with its state fields cleared, one automatic action-log
 * entry each (actor `system`, label = task name). Idempotent: a second run finds nothing.
 */
@Injectable()
export class StateExpiryService {
  private readonly logger = new Logger('StateExpiry');

  constructor(
    private readonly repository: StateExpiryRepository,
    private readonly clock: Clock,
  ) {}

  /** Moves every due finding of one transition; returns how many moved. */
  async expire(transition: ExpiryTransition): Promise<number> {
    const now = this.clock.now();
    const plan = {
      from: transition.from,
      to: transition.to,
      fields: { riskAcceptedUntil: null, waitingReason: null, waitingUntil: null },
      clock: CLOCK_EFFECT_OF[transition.to],
      closesViolations: CLOSING_STATES.includes(transition.to),
    };
    let total = 0;
    for (;;) {
      const moved = await this.repository.expireChunk(
        plan,
        transition.dueField,
        systemActor(transition.task),
        now,
      );
      total += moved;
      if (moved < EXPIRY_CHUNK) break;
    }
    if (total > 0) {
      this.logger.log(`${transition.task}: ${total} ${transition.from} → ${transition.to}`);
    }
    return total;
  }
}
