import { defineJobContract } from '@platform/queue';
import { ACTOR_TYPES, type Actor, type ActorType } from '../action-log/finding-action';

/** A rule's run over the project's accumulated findings: one job per run, id `sup-<uuid>`. */
export const SUPPRESSION_RUN_QUEUE = 'suppression-run';

/** Findings walked by a run's first chunk (one transaction each; progress follows each chunk). */
export const SUPPRESSION_RUN_CHUNK = 5_000;
/**
 * The most findings a chunk walks: a chunk that took less than SUPPRESSION_RUN_CHUNK_MS / 2
 * doubles the next one up to this, one that took more than twice it halves the next one down
 * to SUPPRESSION_RUN_CHUNK. Kept at SUPPRESSION_RUN_CHUNK, i.e. no growth: with chunks growing
 * up to 40 000 the bench's run over 1 M findings took 38 s against 20 s with chunks of 5 000 at
 * the same load (docs/benchmarks.md#suppression; why larger chunks are slower is not profiled).
 */
export const SUPPRESSION_RUN_MAX_CHUNK = SUPPRESSION_RUN_CHUNK;
export const SUPPRESSION_RUN_CHUNK_MS = 1_000;

/**
 * A `running` run that showed no life (start, a chunk) for this long is taken as dead: the next
 * run is accepted and the stale one marked `failed` (a chunk takes seconds; the worker's job lock
 * is 60 s). A run whose queue job is gone, completed or failed is replaced at once.
 */
export const SUPPRESSION_RUN_STALE_SECONDS = 600;

/** Queue states of a job that can still run (BullMQ `getJobState`). */
export const SUPPRESSION_RUN_LIVE_STATES: readonly string[] = [
  'active',
  'waiting',
  'delayed',
  'prioritized',
  'waiting-children',
];

export interface SuppressionRunJob {
  jobId: string;
  projectId: string;
  ruleId: string;
  /** The rule's text when the run was asked for: a changed rule stops the run. */
  query: string;
  actor: Actor;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const SUPPRESSION_RUN = defineJobContract<SuppressionRunJob>('suppression-run', (data) => {
  if (typeof data !== 'object' || data === null) throw new Error('expected an object');
  const { jobId, projectId, ruleId, query, actor } = data as Record<string, unknown>;
  if (typeof jobId !== 'string' || !/^sup-[0-9a-f-]{36}$/.test(jobId)) {
    throw new Error('jobId must be sup-<uuid>');
  }
  if (typeof projectId !== 'string' || !UUID.test(projectId)) throw new Error('projectId: UUID');
  if (typeof ruleId !== 'string' || !UUID.test(ruleId)) throw new Error('ruleId: UUID');
  if (typeof query !== 'string') throw new Error('query must be a string');
  const a = actor as Record<string, unknown> | null;
  if (
    typeof a !== 'object' ||
    a === null ||
    !(ACTOR_TYPES as readonly unknown[]).includes(a['type']) ||
    (a['id'] !== null && typeof a['id'] !== 'string') ||
    (a['label'] !== null && typeof a['label'] !== 'string')
  ) {
    throw new Error('actor must be {type, id, label}');
  }
  return {
    jobId,
    projectId,
    ruleId,
    query,
    actor: {
      type: a['type'] as ActorType,
      id: a['id'] as string | null,
      label: a['label'] as string | null,
    },
  };
});
