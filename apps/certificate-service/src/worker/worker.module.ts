import { DynamicModule, Module } from '@nestjs/common';
import { CoreModule, type CertsvcRuntime } from '../app/core.module';

/**
 * The background worker: no HTTP. For now it waits for migrations and idles; the webhook
 * outbox, SCEP poller and log-snapshot purge will be added here.
 */
@Module({})
export class WorkerModule {
  static register(runtime: CertsvcRuntime): DynamicModule {
    return { module: WorkerModule, imports: [CoreModule.register(runtime)] };
  }
}
