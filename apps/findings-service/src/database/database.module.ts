import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FindingsConfig } from '../app/config/findings-config';
import { findingsDataSourceOptions } from './data-source';
import { MigrationGateService } from './migration-gate.service';

@Module({})
export class DatabaseModule {
  static forRoot(config: FindingsConfig): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({
          ...findingsDataSourceOptions(config.databaseUrl, `findings-${config.role}`),
          retryAttempts: 3,
          retryDelay: 1000,
        }),
      ],
      providers: [MigrationGateService],
    };
  }
}
