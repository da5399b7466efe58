import {
  DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { Registry } from 'prom-client';
import { startMetricsServer } from './metrics-server';

export interface MetricsListenerOptions {
  registry: Registry;
  port: number;
  host: string;
}

const METRICS_LISTENER_OPTIONS = Symbol('METRICS_LISTENER_OPTIONS');

/** Serves `/metrics` of the process on a port of its own (never the API port). */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private close?: () => Promise<void>;
  private boundPort?: number;

  constructor(@Inject(METRICS_LISTENER_OPTIONS) private readonly options: MetricsListenerOptions) {}

  async onApplicationBootstrap(): Promise<void> {
    const { registry, port, host } = this.options;
    const server = await startMetricsServer(registry, port, host);
    this.close = server.close;
    this.boundPort = server.port;
    this.logger.log(`metrics on http://${host}:${server.port}/metrics`);
  }

  /** Port actually bound (differs from the option when it is 0). */
  get port(): number | undefined {
    return this.boundPort;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close?.();
  }
}

/** The metrics listener, started with the application and closed with it. */
@Module({})
export class MetricsListenerModule {
  static forRoot(options: MetricsListenerOptions): DynamicModule {
    return {
      module: MetricsListenerModule,
      providers: [{ provide: METRICS_LISTENER_OPTIONS, useValue: options }, MetricsListener],
      exports: [MetricsListener],
    };
  }
}
