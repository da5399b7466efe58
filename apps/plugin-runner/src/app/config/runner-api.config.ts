import type { EnvReader } from '@platform/config';

/**
 * The runner API's settings (docs/plugins/runner-api.md). The wait for a host call's answer
 * is the sandbox's PLUGIN_RUNNER_HOST_CALL_TIMEOUT_MS (`SandboxLimits.hostCallTimeoutMs`).
 */
export interface RunnerApiConfig {
  /**
   * PLUGIN_RUNNER_TOKEN: the shared secret the findings service sends as
   * `authorization: Bearer <token>`. Unset: the runner API refuses every call.
   */
  token?: string;
}

const MIN_TOKEN_LENGTH = 32;

export function readRunnerApiConfig(read: EnvReader): RunnerApiConfig {
  const token = read.optionalString('PLUGIN_RUNNER_TOKEN');
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    read.problem(`PLUGIN_RUNNER_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
  return { token };
}
