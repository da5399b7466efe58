import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { startMetricsServer } from '@platform/metrics';
import { FINDINGS_CONFIG } from '../config/config.tokens';
import { FindingsConfig } from '../config/findings-config';
import { FindingsMetrics } from './findings-metrics';

/** Serves `/metrics` of this process on METRICS_PORT (never on the API port). */
@Injectable()
export class MetricsServerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private close?: () => Promise<void>;
  private boundPort?: number;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly metrics: FindingsMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const server = await startMetricsServer(
      this.metrics.registry,
      this.config.metricsPort,
      this.config.host,
    );
    this.close = server.close;
    this.boundPort = server.port;
    this.logger.log(`metrics on http://${this.config.host}:${server.port}/metrics`);
  }

  /** Port actually bound (differs from the config when METRICS_PORT=0). */
  get port(): number | undefined {
    return this.boundPort;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close?.();
  }
}
