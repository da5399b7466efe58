/** The agent's exit codes (docs/agent.md, "Exit codes"). */
export const ExitCode = {
  /** Done: enrolled, or one `run --once` pass completed. */
  ok: 0,
  /** A fault of the agent itself (a bug); the message is one line, `--verbose` logs the stack. */
  internal: 1,
  /** Bad command line: unknown command or option, a missing or malformed value. */
  usage: 2,
  /** The service refused (a 4xx other than 429): rejected request, secret or token not accepted. */
  refused: 3,
  /** The service could not be reached (or answered 5xx/429) until the retry budget ran out. */
  unreachable: 4,
  /** Enrolled, still awaiting approval when `--wait` ran out; `enroll` again resumes. */
  pending: 5,
  /** The state directory cannot be used (permissions, a damaged file). */
  state: 6,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure that ends a command with a documented exit code and a one-line message. */
export class AgentExit extends Error {
  constructor(
    readonly code: ExitCodeValue,
    message: string,
  ) {
    super(message);
  }
}
