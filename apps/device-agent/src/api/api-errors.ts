/** The service answered with an error status; `code` from its `{code, message}` envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds from `Retry-After` (429), when given. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** Worth another try later: 5xx, 429 and 408. Other 4xx are a refusal. */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429 || this.status === 408;
  }
}

/** No answer at all: connection refused, DNS failure, reset, time-out. */
export class NetworkError extends Error {}
