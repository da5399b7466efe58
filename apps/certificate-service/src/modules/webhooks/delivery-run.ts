import type { AttemptResult, ClaimedDelivery } from './webhook-deliveries.repository';

/** What one drain needs from the worker (kept apart so the pipeline reads on its own). */
export interface DrainSteps {
  claim(limit: number): Promise<ClaimedDelivery[]>;
  /** Loads what sending to these endpoints needs (cached for the run). */
  prepare(batch: readonly ClaimedDelivery[]): Promise<void>;
  attempt(delivery: ClaimedDelivery): Promise<AttemptResult>;
  record(results: readonly AttemptResult[]): Promise<void>;
}

export interface DrainLimits {
  batchSize: number;
  concurrency: number;
  perEndpointConcurrency: number;
  /** No new claim after this moment (epoch ms); what is claimed is still sent. */
  claimUntil: number;
}

/**
 * One drain as a pipeline: `concurrency` senders take claimed rows (at most
 * `perEndpointConcurrency` in flight per endpoint); the next batch is claimed while the current
 * one is being sent (at most two batches held), and attempts are recorded every `batchSize`
 * results while the sends go on — no sender waits for a batch's slowest call or for the
 * database between batches. Claiming stops when a batch comes back short or at `claimUntil`.
 */
export async function runDrain(steps: DrainSteps, limits: DrainLimits): Promise<number> {
  const queue: ClaimedDelivery[] = [];
  const results: AttemptResult[] = [];
  const inFlight = new Map<string, number>();
  const recording: Promise<void>[] = [];
  let exhausted = false;
  let claiming: Promise<void> | undefined;
  let attempts = 0;
  // Senders with nothing they may take (every held row's endpoint at its limit) wait here
  // until a call ends, instead of spinning.
  let slotFreed!: () => void;
  let freed = new Promise<void>((resolve) => (slotFreed = resolve));
  const wakeSenders = () => {
    slotFreed();
    freed = new Promise<void>((resolve) => (slotFreed = resolve));
  };

  // A failed claim or record ends the drain (after what is held was sent) and is raised at
  // its end; the promises never reject unobserved.
  let failure: unknown;
  const claimNext = (): Promise<void> => {
    claiming ??= (async () => {
      const batch = await steps.claim(limits.batchSize);
      if (batch.length < limits.batchSize) exhausted = true;
      await steps.prepare(batch);
      queue.push(...batch);
    })()
      .catch((error: unknown) => {
        failure ??= error;
        exhausted = true;
      })
      .finally(() => {
        claiming = undefined;
      });
    return claiming;
  };
  const canClaim = () => !exhausted && Date.now() < limits.claimUntil;
  const flush = () => {
    const chunk = results.splice(0);
    if (chunk.length === 0) return;
    recording.push(
      steps.record(chunk).catch((error: unknown) => {
        failure ??= error;
      }),
    );
  };

  const sender = async (): Promise<void> => {
    for (;;) {
      if (queue.length < limits.batchSize && canClaim() && claiming === undefined) {
        void claimNext();
      }
      const index = queue.findIndex(
        (d) => (inFlight.get(d.endpointId) ?? 0) < limits.perEndpointConcurrency,
      );
      if (index < 0) {
        if (claiming) await Promise.race([claiming, freed]);
        else if (queue.length === 0) return;
        else await freed;
        continue;
      }
      const [delivery] = queue.splice(index, 1);
      inFlight.set(delivery.endpointId, (inFlight.get(delivery.endpointId) ?? 0) + 1);
      try {
        results.push(await steps.attempt(delivery));
        attempts += 1;
        if (results.length >= limits.batchSize) flush();
      } finally {
        inFlight.set(delivery.endpointId, (inFlight.get(delivery.endpointId) ?? 1) - 1);
        wakeSenders();
      }
    }
  };

  if (canClaim()) await claimNext();
  await Promise.all(Array.from({ length: limits.concurrency }, sender));
  if (claiming) await claiming;
  flush();
  await Promise.all(recording);
  if (failure !== undefined) throw failure;
  return attempts;
}
