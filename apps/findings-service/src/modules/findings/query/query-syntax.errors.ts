import { DomainError } from '@platform/errors';

/**
 * A query that cannot be parsed. The message names the 1-based character column and the
 * problem, e.g. `position 10: expected a value after "severity:"`. Mapped to HTTP 400; the
 * query is not run.
 */
export class QuerySyntaxError extends DomainError {
  constructor(
    readonly position: number,
    readonly problem: string,
  ) {
    super('query_syntax_error', `position ${position}: ${problem}`, { position, problem });
  }
}
