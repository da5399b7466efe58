/**
 * A small deterministic generator (a linear congruential one): the same data on every run, so
 * a generated case that fails fails again.
 */
export function seededRandom(seed: number): {
  rnd: () => number;
  pick: <T>(xs: readonly T[]) => T;
} {
  let s = seed >>> 0;
  const rnd = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return { rnd, pick: (xs) => xs[Math.floor(rnd() * xs.length)] };
}
