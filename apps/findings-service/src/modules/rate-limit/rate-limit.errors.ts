import { FindingsError } from '../../app/errors/app-error';

export class RateLimitError extends FindingsError<'rate_limited'> {
  constructor(retryAfterSeconds: number) {
    super('rate_limited', { retryAfterSeconds });
  }
}
