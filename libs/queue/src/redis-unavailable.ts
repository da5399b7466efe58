/**
 * Messages of errors that mean "Redis cannot take the command right now" (as opposed to a
 * bug such as invalid job options): ioredis connection states, socket errors, and Redis
 * refusing writes while loading, read-only, or out of memory.
 */
const unavailablePatterns = [
  /Stream isn't writeable/i,
  /Connection is closed/i,
  /Reached the max retries per request limit/i,
  /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND)\b/,
  /^(LOADING|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN)\b/,
  /^OOM\b/,
];

export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  const texts = typeof code === 'string' ? [error.message, code] : [error.message];
  return unavailablePatterns.some((pattern) => texts.some((text) => pattern.test(text)));
}
