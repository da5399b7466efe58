import { InvalidJobPayloadError } from './queue.errors';

/** The shared, typed definition of one job: its name and how to validate its payload. */
export interface JobContract<T> {
  readonly name: string;
  /** Validates a consumed payload; throws `InvalidJobPayloadError` (unrecoverable). */
  parse(data: unknown): T;
}

/**
 * Defines a job contract. `validate` returns the typed payload or throws (any error) when the
 * data does not fit; it runs when the job is consumed, and also before it is added.
 */
export function defineJobContract<T>(name: string, validate: (data: unknown) => T): JobContract<T> {
  return {
    name,
    parse(data: unknown): T {
      try {
        return validate(data);
      } catch (error) {
        throw new InvalidJobPayloadError(
          name,
          error instanceof Error ? error.message : String(error),
        );
      }
    },
  };
}
