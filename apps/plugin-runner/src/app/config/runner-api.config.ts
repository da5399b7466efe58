import type { EnvReader } from '@platform/config';

/** The runner API's settings (docs/plugins/runner-api.md). */
export interface RunnerApiConfig {
  /**
   * PLUGIN_RUNNER_TOKEN: the shared secret the findings service sends as
   * `authorization: Bearer <token>`. Unset: the runner API refuses every call.
   */
  token?: string;
  /**
   * PLUGIN_RUNNER_HOST_CALL_TIMEOUT_MS: how long a host call sent back on an Invoke stream waits
   * for the findings service's answer (the sandbox reads the same setting for its own wait).
   */
  hostCallTimeoutMs: number;
}

const MIN_TOKEN_LENGTH = 32;

export function readRunnerApiConfig(read: EnvReader): RunnerApiConfig {
  const token = read.optionalString('PLUGIN_RUNNER_TOKEN');
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    read.problem(`PLUGIN_RUNNER_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
  return {
    token,
    hostCallTimeoutMs: read.int('PLUGIN_RUNNER_HOST_CALL_TIMEOUT_MS', 5_000, {
      min: 10,
      max: 600_000,
    }),
  };
}
