import { FindingsError } from '../../app/errors/findings-error';

export class RateLimitError extends FindingsError<'rate_limited'> {
  constructor(retryAfterSeconds: number) {
    super('rate_limited', { retryAfterSeconds });
  }
}
