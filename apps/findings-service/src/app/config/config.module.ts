import { DynamicModule, Global, Module } from '@nestjs/common';
import { FindingsConfig } from './findings-config';
import { FINDINGS_CONFIG } from './config.tokens';

/** Makes the boot-time FindingsConfig injectable everywhere (`@Inject(FINDINGS_CONFIG)`). */
@Global()
@Module({})
export class FindingsConfigModule {
  static forRoot(config: FindingsConfig): DynamicModule {
    return {
      module: FindingsConfigModule,
      providers: [{ provide: FINDINGS_CONFIG, useValue: config }],
      exports: [FINDINGS_CONFIG],
    };
  }
}
