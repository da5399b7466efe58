import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { EgressGuard } from '@platform/egress';
import { resolveRequestId } from '@platform/logging';
import { installHttpMetrics, startMetricsServer } from '@platform/metrics';
import { currentBuildInfo } from '@platform/versioning';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import type { PluginRunnerConfig } from './config/plugin-runner.config';
import { createEgressGuard } from '../egress';
import {
  compileThreads,
  closeTranspileCache,
  configureTranspileCache,
  setCompiledCacheEntries,
} from '../wasm/compile/component-compiler';
import { startGrpcServer } from '../grpc/grpc-server';
import { ServingStatusBoard } from '../grpc/serving-status-board';
import { PluginRunnerHttpModule } from '../http/http.module';
import { createRunnerLogger } from './logging/runner-logger';
import { createRunnerMetrics } from './metrics/runner-metrics';
import { createPluginExecution, RUNNER_SERVICE_NAME } from './plugin-execution';
import { COMPONENT, PROCESS_SERVICE, RUNNER_SERVICE } from './runner-identity';

export interface RunningPluginRunner {
  httpPort: number;
  grpcPort: number;
  metricsPort: number;
  board: ServingStatusBoard;
  logger: Logger;
  /** The egress guard every plugin's `http-request` goes through (@platform/egress, docs/egress.md). */
  egress: EgressGuard;
  /** Graceful stop: NOT_SERVING, HTTP drained, gRPC tryShutdown (forced after the grace). */
  close(): Promise<void>;
}

/**
 * Starts every listener of the runner: metrics, gRPC (health and the runner API with the
 * plugin hosts behind it, docs/plugins/runner-api.md), HTTP (`/health`, `/version`). Ports of
 * 0 bind ephemeral ports (tests).
 */
export async function startPluginRunner(
  config: PluginRunnerConfig,
  logger: Logger = createRunnerLogger(config),
): Promise<RunningPluginRunner> {
  const build = currentBuildInfo();
  logger.info(
    { version: build.version, commit: build.commit, built_at: build.builtAt },
    `starting ${COMPONENT}`,
  );
  setCompiledCacheEntries(config.compiledCacheEntries);
  compileThreads.configure(config.compileThreads);
  configureTranspileCache(config.transpileCache, logger);
  const board = new ServingStatusBoard();
  const metrics = createRunnerMetrics(build);
  const egress = createEgressGuard({ policy: config.egress, registry: metrics.registry, logger });
  const closers: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close();
  };
  try {
    const metricsServer = await startMetricsServer(
      metrics.registry,
      config.metrics.port,
      config.metrics.host,
    );
    closers.push(metricsServer.close);

    // Idle compile threads stop once the hosts have (a load in progress finishes first).
    closers.push(async () => compileThreads.stopIdle());
    // Loads outside a runner (tests of the host alone, in the same process) use no disk cache.
    closers.push(async () => closeTranspileCache());
    // The runner API and the hosts behind it; the hosts stop after gRPC has drained.
    const plugins = createPluginExecution({
      config,
      logger,
      registry: metrics.registry,
      board,
      egress,
    });
    closers.push(() => plugins.close());
    const grpc = await startGrpcServer(config.grpc.host, config.grpc.port, board, [
      plugins.registration,
    ]);
    closers.push(() => grpc.shutdown(config.shutdownGraceMs));
    closers.push(async () => plugins.enterShutdown());

    const app = await NestFactory.create<NestFastifyApplication>(
      PluginRunnerHttpModule.register(board, logger),
      new FastifyAdapter({
        genReqId: (req: { headers: IncomingHttpHeaders }) => resolveRequestId(req.headers),
      }),
      { bufferLogs: true },
    );
    app.useLogger(app.get(NestPinoLogger));
    const fastify = app.getHttpAdapter().getInstance();
    installHttpMetrics(fastify, metrics.http);
    fastify.addHook('onSend', async (request, reply) => {
      void reply.header('x-request-id', request.id);
    });
    closers.push(() => app.close());
    await app.listen(config.http.port, config.http.host);
    const httpPort = (app.getHttpServer().address() as AddressInfo).port;

    board.set(PROCESS_SERVICE, 'SERVING');
    board.set(RUNNER_SERVICE, 'SERVING');
    board.set(RUNNER_SERVICE_NAME, 'SERVING');
    logger.info(
      { http_port: httpPort, grpc_port: grpc.port, metrics_port: metricsServer.port },
      `${COMPONENT} serving`,
    );

    let closing: Promise<void> | undefined;
    return {
      httpPort,
      grpcPort: grpc.port,
      metricsPort: metricsServer.port,
      board,
      logger,
      egress,
      close: () => {
        closing ??= (async () => {
          logger.info(`stopping ${COMPONENT}`);
          board.enterShutdown();
          await closeAll();
          logger.info(`${COMPONENT} stopped`);
        })();
        return closing;
      },
    };
  } catch (error) {
    board.enterShutdown();
    await closeAll();
    throw error;
  }
}
