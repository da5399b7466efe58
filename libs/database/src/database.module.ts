import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnModuleInit,
} from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from './data-source-options';
import { runMigrationsUnderLock, waitForMigrations } from './migration-lock';

/** `apply`: API replicas migrate under the lock; `wait`: workers wait and refuse pending ones. */
export type MigrationRole = 'apply' | 'wait';

export interface DatabaseModuleOptions {
  /** The service's data source (entities, migrations, application name). */
  dataSource: PostgresDataSourceOptions;
  migrations: { role: MigrationRole; lockKey: string; waitSeconds: number };
  /** Connection attempts at start before the process gives up (default 3). */
  connectAttempts?: number;
}

const DATABASE_OPTIONS = Symbol('DATABASE_OPTIONS');

/** Runs before any other start-up work touches the database. */
@Injectable()
export class MigrationGate implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(
    @Inject(DATABASE_OPTIONS) private readonly options: DatabaseModuleOptions,
    private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    const { role, lockKey, waitSeconds } = this.options.migrations;
    const lock = { lockKey, waitSeconds, logger: this.logger };
    if (role === 'apply') await runMigrationsUnderLock(this.dataSource, lock);
    else await waitForMigrations(this.dataSource, lock);
  }
}

/**
 * The service's TypeORM connection and its migration gate. Global, so its start-up hook runs
 * before those of the feature modules (Nest initialises global modules first).
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({
          ...options.dataSource,
          retryAttempts: options.connectAttempts ?? 3,
          retryDelay: 1000,
        }),
      ],
      providers: [{ provide: DATABASE_OPTIONS, useValue: options }, MigrationGate],
    };
  }
}
