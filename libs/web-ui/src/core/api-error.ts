/** One refused field of a validation error, as both services send it. */
export interface FieldProblem {
  field: string;
  problems: string[];
}

/**
 * An answer in a service's error envelope, whatever its shape on the wire (the findings service
 * sends `{error, code, position?, fields?}`, the certificate service `{code, message,
 * details?}`: each app's client maps its envelope here). `message` is localized by
 * Accept-Language where the service does it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly position?: number,
    readonly fields?: FieldProblem[],
  ) {
    super(message);
  }
}

/** The error of whichever of `attempts` (mutations) ran last: an older failure is not shown once a newer try ran. */
export function latestError(
  ...attempts: { error: unknown; submittedAt: number; isIdle: boolean }[]
): unknown {
  let latest: { error: unknown; submittedAt: number } | undefined;
  for (const a of attempts) {
    if (!a.isIdle && (latest === undefined || a.submittedAt > latest.submittedAt)) latest = a;
  }
  return latest?.error ?? null;
}
