import { credentials, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadPluginRunnerConfig } from '../src/app/config/plugin-runner.config';
import { loadHealthService } from '@platform/plugin-protocol';
import { transpileCacheEnv } from '@platform/testing';
import { startPluginRunner, type RunningPluginRunner } from '../src/app/runner';

/** Boots a real runner on ephemeral loopback ports with quiet JSON logs. */
export function startTestRunner(): Promise<RunningPluginRunner> {
  return startPluginRunner(
    loadPluginRunnerConfig({
      PLUGIN_RUNNER_HOST: '127.0.0.1',
      PLUGIN_RUNNER_PORT: '0',
      PLUGIN_RUNNER_GRPC_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      APP_ENV: 'production',
      LOG_FILE_SINK_ENABLED: 'false',
      PLUGIN_RUNNER_SHUTDOWN_GRACE_MS: '2000',
      ...transpileCacheEnv(),
    }),
  );
}

export interface HealthClient extends Client {
  Check(
    request: { service: string },
    callback: (error: ServiceError | null, response?: { status: string }) => void,
  ): void;
  Watch(request: { service: string }): NodeJS.EventEmitter & { cancel(): void };
}

/** A plain grpc-js client of `grpc.health.v1.Health`, as any orchestrator would use. */
export function healthClient(port: number): HealthClient {
  const Health = loadHealthService();
  return new Health(`127.0.0.1:${port}`, credentials.createInsecure()) as unknown as HealthClient;
}

export function check(
  client: HealthClient,
  service: string,
): Promise<{ status?: string; error?: ServiceError }> {
  return new Promise((resolve) => {
    client.Check({ service }, (error, response) =>
      resolve(error ? { error } : { status: response?.status }),
    );
  });
}
