import type { AgentLogger } from '../log/logger';
import type { BackoffPolicy } from './backoff';
import type { Clock } from './clock';

/** What every command gets: time, randomness, logging and its retry limits. */
export interface AgentContext {
  readonly clock: Clock;
  readonly random: () => number;
  readonly logger: AgentLogger;
  /** The user half's logger (per-person enrollments; its own log file). */
  readonly userLogger: AgentLogger;
  /** The log files (`--log-file` and its user half), for a snapshot; empty without one. */
  readonly logFiles: readonly string[];
  readonly backoff: BackoffPolicy;
  /** How long an unreachable service is retried before the command gives up (exit 4). */
  readonly retryForMs: number;
}
