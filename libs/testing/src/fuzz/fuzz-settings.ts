import { freshFuzzSeed } from './fuzz-random';

export interface FuzzSettings {
  seed: number;
  /** `modest` samples `requests` cases; `full` sends every planned case (at least `requests`). */
  size: 'modest' | 'full';
  requests: number;
}

export interface FuzzDefaults {
  modestRequests: number;
  fullRequests: number;
}

function positiveInt(name: string, raw: string): number {
  const value = /^0x[0-9a-f]+$/i.test(raw) ? Number.parseInt(raw, 16) : Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/**
 * The seed of a run that names none. Fixed, so `npm test` sends the same cases every time
 * (a deterministic suite); `FUZZ_SEED=random` explores.
 */
export const DEFAULT_FUZZ_SEED = 1;

/** `FUZZ_SEED` reproduces a run, `FUZZ_SIZE=full` or `FUZZ_REQUESTS=<n>` sets its size. */
export function fuzzSettings(
  env: Record<string, string | undefined>,
  defaults: FuzzDefaults,
): FuzzSettings {
  const rawSeed = env.FUZZ_SEED ?? '';
  const seed =
    rawSeed === ''
      ? DEFAULT_FUZZ_SEED
      : rawSeed === 'random'
        ? freshFuzzSeed()
        : positiveInt('FUZZ_SEED', rawSeed) >>> 0;
  const sizeName = env.FUZZ_SIZE ?? 'modest';
  if (sizeName !== 'modest' && sizeName !== 'full') {
    throw new Error(`FUZZ_SIZE must be modest or full, got ${JSON.stringify(sizeName)}`);
  }
  const size = sizeName;
  const requests = env.FUZZ_REQUESTS
    ? positiveInt('FUZZ_REQUESTS', env.FUZZ_REQUESTS)
    : size === 'full'
      ? defaults.fullRequests
      : defaults.modestRequests;
  return { seed, size, requests };
}
