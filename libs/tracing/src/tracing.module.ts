import {
  type DynamicModule,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Tracing } from './tracing';

const TRACING_INSTANCE = Symbol('TRACING_INSTANCE');

/** Sends the buffered spans when the application stops. */
@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  constructor(@Inject(TRACING_INSTANCE) private readonly tracing: Tracing) {}

  async onApplicationShutdown(): Promise<void> {
    await this.tracing.shutdown();
  }
}

/** The process's Tracing, injectable everywhere (`Tracing`), flushed and closed at shutdown. */
@Module({})
export class TracingModule {
  static forRoot(tracing: Tracing): DynamicModule {
    return {
      module: TracingModule,
      global: true,
      providers: [
        { provide: TRACING_INSTANCE, useValue: tracing },
        { provide: Tracing, useExisting: TRACING_INSTANCE },
        TracingShutdown,
      ],
      exports: [Tracing],
    };
  }
}
