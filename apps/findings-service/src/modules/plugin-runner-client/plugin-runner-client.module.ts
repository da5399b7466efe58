import {
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type FactoryProvider,
  type ModuleMetadata,
  type OnModuleDestroy,
  type ValueProvider,
} from '@nestjs/common';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { NOT_CONFIGURED_PORTS, type HostCallPorts } from './host-call-ports';
import { PluginRunnerClient } from './plugin-runner.client';

/** Injection token of the host-call ports the client answers the runner's host calls with. */
export const HOST_CALL_PORTS = Symbol('HOST_CALL_PORTS');

/** Where the ports come from: a value, or a factory over other providers. */
export type HostCallPortsSource =
  Omit<ValueProvider<HostCallPorts>, 'provide'> | Omit<FactoryProvider<HostCallPorts>, 'provide'>;

/** Closes the client's channels when the application stops. */
@Injectable()
export class PluginRunnerClientLifecycle implements OnModuleDestroy {
  constructor(readonly client: PluginRunnerClient) {}

  onModuleDestroy(): void {
    this.client.close();
  }
}

/**
 * The plugin runner's client (PLUGIN_RUNNER_URL, PLUGIN_RUNNER_TOKEN;
 * docs/plugins/runner-api.md). `register()` answers every host call "not configured"; the
 * plugin management issue registers it with real ports (secret storage, project mail, CVE
 * data) and the modules they need.
 */
@Module({})
export class PluginRunnerClientModule {
  static register(
    options: { ports?: HostCallPortsSource; imports?: ModuleMetadata['imports'] } = {},
  ): DynamicModule {
    return {
      module: PluginRunnerClientModule,
      imports: options.imports ?? [],
      providers: [
        { provide: HOST_CALL_PORTS, ...(options.ports ?? { useValue: NOT_CONFIGURED_PORTS }) },
        {
          provide: PluginRunnerClient,
          inject: [FINDINGS_CONFIG, HOST_CALL_PORTS],
          useFactory: (config: FindingsConfig, ports: HostCallPorts) => {
            const logger = new Logger('PluginRunnerClient');
            return new PluginRunnerClient(config.pluginRunner, ports, (error, call) =>
              logger.error(
                `host call ${call} failed: ${(error as Error)?.message ?? String(error)}`,
              ),
            );
          },
        },
        PluginRunnerClientLifecycle,
      ],
      exports: [PluginRunnerClient],
    };
  }
}
