/** The time claims of a test token, computed when the request is sent. */
export type TokenTimes = () => Record<string, unknown>;

const now = (): number => Math.floor(Date.now() / 1000);

/** Tokens inside their lifetime, up to the edges the clock skew tolerates: all accepted. */
export function tokenTimesAccepted(skewSeconds: number): TokenTimes[] {
  return [
    () => ({ iat: now(), exp: now() + 600 }),
    () => ({ iat: now() - 5, exp: now() + 600, nbf: now() - 5 }),
    () => ({ iat: now() - 600, exp: now() - skewSeconds / 3 }),
    () => ({ iat: now() + skewSeconds / 3, exp: now() + 600, nbf: now() + skewSeconds / 3 }),
  ];
}

/** Tokens every service refuses (a time claim missing, out of time or not a number), by case. */
export function tokenTimesRefused(skewSeconds: number): [string, TokenTimes][] {
  return [
    ['without exp', () => ({ iat: now() })],
    ['without iat', () => ({ exp: now() + 600 })],
    ['without exp and iat', () => ({})],
    ['exp in the past', () => ({ iat: now() - 600, exp: now() - 2 * skewSeconds })],
    ['iat in the future', () => ({ iat: now() + 2 * skewSeconds, exp: now() + 600 })],
    ['nbf in the future', () => ({ iat: now(), exp: now() + 600, nbf: now() + 2 * skewSeconds })],
    ['non-numeric exp', () => ({ iat: now(), exp: String(now() + 600) })],
    ['non-numeric iat', () => ({ iat: String(now()), exp: now() + 600 })],
    ['non-numeric nbf', () => ({ iat: now(), exp: now() + 600, nbf: 'now' })],
  ];
}
