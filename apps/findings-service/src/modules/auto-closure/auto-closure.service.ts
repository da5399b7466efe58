import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../app/clock';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { ClosureRepository, type ClosureOutcome } from './closure.repository';
import {
  VerificationsRepository,
  type RecordedVerdicts,
  type ScannerVerdict,
} from './verifications.repository';

/** The key that signed a callback, as the callback route verified it. */
export interface VerdictSource {
  /** Public id (`sck_...`). */
  keyId: string;
  /** The project the key is restricted to; null: any. */
  projectId: string | null;
}

/**
 * Closing eligible findings (under the switches and the hourly cap) and taking the scanners'
 * re-verification answers. Used by the API (callbacks) and the worker (after checks, the
 * periodic pass).
 */
@Injectable()
export class AutoClosureService {
  private readonly logger = new Logger('AutoClosure');

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly closures: ClosureRepository,
    private readonly verifications: VerificationsRepository,
    private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.config.autoClosure.enabled;
  }

  /** Closes what is eligible in one project now (nothing when the global switch is off). */
  async closeEligible(projectId: string): Promise<ClosureOutcome> {
    if (!this.enabled) return { closed: [], capped: 0 };
    const rules = this.config.autoClosure;
    const outcome = await this.closures.closeEligible(projectId, {
      required: rules.consecutiveChecks,
      maxPerHour: rules.maxPerHour,
      now: this.clock.now(),
    });
    if (outcome.closed.length > 0 || outcome.capped > 0) {
      this.logger.log(
        `project ${projectId}: ${outcome.closed.length} finding(s) closed automatically, ${outcome.capped} held by the hourly cap`,
      );
    }
    return outcome;
  }

  /** The periodic pass: every project with eligible findings (capped ones from earlier hours). */
  async closeAllEligible(): Promise<number> {
    if (!this.enabled) return 0;
    let closed = 0;
    for (const projectId of await this.closures.projectsWithEligible(
      this.config.autoClosure.consecutiveChecks,
    )) {
      closed += (await this.closeEligible(projectId)).closed.length;
    }
    return closed;
  }

  /** Stores a callback's answers; an `absent` confirmation may close findings at once. */
  async recordVerdicts(
    verdicts: ScannerVerdict[],
    source: VerdictSource,
  ): Promise<RecordedVerdicts & { closed: number }> {
    const recorded = await this.verifications.record(
      verdicts,
      source.keyId,
      source.projectId,
      this.clock.now(),
    );
    let closed = 0;
    for (const projectId of recorded.confirmedProjects) {
      closed += (await this.closeEligible(projectId)).closed.length;
    }
    return { ...recorded, closed };
  }
}
