import type { EnvReader } from '@platform/config';

/** How the findings service reaches the plugin runner's API (docs/plugins/runner-api.md). */
export interface PluginRunnerClientConfig {
  /**
   * PLUGIN_RUNNER_URL: the runner's gRPC address, `host:port` (`grpc://host:port` is accepted).
   * Default `127.0.0.1:7071`, the runner's own default (its gRPC listens on loopback).
   */
  target: string;
  /**
   * PLUGIN_RUNNER_TOKEN: the shared secret the runner expects (the same variable on both
   * sides). Unset: the client refuses every call locally with `runner_not_configured`.
   */
  token?: string;
  /** PLUGIN_RUNNER_CLIENT_TIMEOUT_MS: deadline of a Load/Unload and of a whole Invoke stream. */
  timeoutMs: number;
}

const TARGET = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/;
const MIN_TOKEN_LENGTH = 32;

export function readPluginRunnerClientConfig(r: EnvReader): PluginRunnerClientConfig {
  const raw = r.string('PLUGIN_RUNNER_URL', '127.0.0.1:7071');
  const target = raw.replace(/^grpc:\/\//, '');
  const port = Number(target.slice(target.lastIndexOf(':') + 1));
  if (!TARGET.test(target) || port < 1 || port > 65535) {
    r.problem(`PLUGIN_RUNNER_URL must be host:port (or grpc://host:port), got "${raw}"`);
  }
  const token = r.optionalString('PLUGIN_RUNNER_TOKEN');
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    r.problem(`PLUGIN_RUNNER_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
  return {
    target,
    token,
    timeoutMs: r.int('PLUGIN_RUNNER_CLIENT_TIMEOUT_MS', 60_000, { min: 100, max: 600_000 }),
  };
}
