/** Exit codes of the `platform` command (docs/cli.md, "Exit codes"). */
export const EXIT = {
  ok: 0,
  /** `upload --fail-on`: findings matched the gate query. */
  gateMatched: 1,
  /** Bad command line or local input: unknown option, missing or unreadable file, bad id. */
  usage: 2,
  /** No credentials, expired or invalid ones, or not allowed (401/403). */
  auth: 3,
  /** The server cannot be reached, answered 5xx, or rate-limited the call (429). */
  unavailable: 4,
  /** The server refused the request (another 4xx: not found, invalid, conflict). */
  refused: 5,
  /** The uploaded report failed to ingest, or an approval/rejection row failed. */
  failed: 6,
  /** `--wait` gave up (`--timeout`). */
  timeout: 7,
  /** A bug in the CLI; the message says what happened (PLATFORM_DEBUG=1 prints the stack). */
  internal: 10,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI reports as one line on stderr and an exit code; never a stack trace. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export function usageError(message: string): CliError {
  return new CliError(EXIT.usage, message, 'usage');
}
