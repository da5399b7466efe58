import { Injectable } from '@nestjs/common';

export interface IssuanceTimingTotals {
  certificates: number;
  issueMs: number;
  databaseMs: number;
}

/** Cumulative time per issuance phase in this process (read by the issuance benchmark). */
@Injectable()
export class IssuanceTimings {
  private totals: IssuanceTimingTotals = { certificates: 0, issueMs: 0, databaseMs: 0 };

  add(phase: Exclude<keyof IssuanceTimingTotals, 'certificates'>, ms: number): void {
    this.totals[phase] += ms;
  }

  issued(count: number): void {
    this.totals.certificates += count;
  }

  snapshot(): IssuanceTimingTotals {
    return { ...this.totals };
  }

  reset(): void {
    this.totals = { certificates: 0, issueMs: 0, databaseMs: 0 };
  }
}

export function elapsedMs(startedNs: bigint): number {
  return Number(process.hrtime.bigint() - startedNs) / 1e6;
}
