import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { runMigrationsUnderLock, waitForMigrations } from '@platform/database';
import { DataSource } from 'typeorm';
import { FINDINGS_CONFIG } from '../app/config/config.tokens';
import { FindingsConfig } from '../app/config/findings-config';
import { MIGRATION_LOCK_KEY } from './data-source';

/**
 * Before anything else touches the database: the API applies pending migrations under the
 * advisory lock (first replica migrates, the others wait); workers wait on the same lock and
 * refuse to start while migrations are pending.
 */
@Injectable()
export class MigrationGateService implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    const options = {
      lockKey: MIGRATION_LOCK_KEY,
      waitSeconds: this.config.migrationLockWaitSeconds,
      logger: this.logger,
    };
    if (this.config.role === 'api') await runMigrationsUnderLock(this.dataSource, options);
    else await waitForMigrations(this.dataSource, options);
  }
}
