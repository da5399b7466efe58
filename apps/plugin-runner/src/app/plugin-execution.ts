import { RUNNER_SERVICE_NAME, loadRunnerService } from '@platform/plugin-protocol';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { EgressGuard } from '@platform/egress';
import type { GrpcServiceRegistration } from '../grpc/grpc-server';
import { RunnerApiToken } from '../grpc/runner-api-auth';
import { RunnerApiGrpcService, type PluginHosts } from '../grpc/runner-api.grpc-service';
import type { ServingStatusBoard } from '../grpc/serving-status-board';
import { StreamHostCallBroker } from '../grpc/stream-host-call-broker';
import { NativePluginHost } from '../native/native-plugin-host';
import { WasmPluginHost } from '../wasm/wasm-plugin-host';
import type { PluginHostObserver } from '../plugin-host/plugin-host';
import type { PluginRunnerConfig } from './config/plugin-runner.config';
import { createPluginMetrics } from './metrics/plugin-metrics';

/** Health entry of a native plugin on the status board (and its gRPC health name). */
export function nativeHealthName(pluginId: string): string {
  return `native:${pluginId}`;
}

export interface PluginExecution {
  /** Host calls answered by the findings service, over the open Invoke streams. */
  broker: StreamHostCallBroker;
  /** Metrics of both tiers. */
  observer: PluginHostObserver;
  /** The hosts by runtime; the runner API dispatches on the loaded plugin's runtime. */
  hosts: PluginHosts;
  /** The runner API service, registered on the runner's gRPC server. */
  registration: GrpcServiceRegistration;
  /** Refuses new Loads and Invokes (the runner is stopping). */
  enterShutdown(): void;
  /** Stops every host (native processes: Shutdown, SIGTERM, SIGKILL). */
  close(): Promise<void>;
}

export interface PluginExecutionDeps {
  config: PluginRunnerConfig;
  logger: Logger;
  /** The runner's metrics registry (served on its metrics port). */
  registry: Registry;
  board: ServingStatusBoard;
  /** The guard of every `http-request` of the WebAssembly host (the runner's one guard). */
  egress: EgressGuard;
}

/** The runner API and the execution tiers behind it, wired to metrics and the status board. */
export function createPluginExecution(deps: PluginExecutionDeps): PluginExecution {
  const { config, logger, registry, board } = deps;
  const metrics = createPluginMetrics(registry);
  const broker = new StreamHostCallBroker();
  const hosts: PluginHosts = {
    wasm: new WasmPluginHost({
      limits: config.sandbox,
      broker,
      egress: deps.egress,
      logger,
      observer: metrics.observer,
    }),
    native: new NativePluginHost({
      limits: config.native,
      broker,
      egress: { allowHttp: config.egress.allowHttp, allowLocalDial: config.egress.allowLocalDial },
      logger,
      observer: metrics.observer,
      events: {
        processRestarted: metrics.nativeRestarted,
        statusChanged: ({ pluginId, serving }) => {
          if (serving === undefined) board.remove(nativeHealthName(pluginId));
          else board.set(nativeHealthName(pluginId), serving ? 'SERVING' : 'NOT_SERVING');
        },
      },
    }),
  };
  const token = new RunnerApiToken(config.runnerApi.token);
  if (!token.configured) {
    logger.warn('PLUGIN_RUNNER_TOKEN is not set: the runner API refuses every call');
  }
  const api = new RunnerApiGrpcService({
    hosts,
    broker,
    token,
    logger,
    hostCallTimeoutMs: config.sandbox.hostCallTimeoutMs,
  });
  return {
    broker,
    observer: metrics.observer,
    hosts,
    registration: { definition: loadRunnerService().service, implementation: api.implementation() },
    enterShutdown: () => api.enterShutdown(),
    close: async () => {
      await Promise.all(Object.values(hosts).map((host) => host?.close()));
    },
  };
}

export { RUNNER_SERVICE_NAME };
