import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Injectable,
  type InjectionToken,
  Logger,
  Module,
  type ModuleMetadata,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LeaderLock } from './leader-lock';
import { LeaderSchedule, type PeriodicTask } from './leader-schedule';

export interface PeriodicTasksOptions {
  /** Advisory lock name shared by the worker replicas of one service. */
  leaderLock: string;
  /** Modules providing what `tasks` needs (global modules need not be listed). */
  imports?: ModuleMetadata['imports'];
  inject: InjectionToken[];
  tasks: (...dependencies: never[]) => PeriodicTask[];
}

const TASKS = Symbol('PERIODIC_TASKS');
const LOCK_NAME = Symbol('PERIODIC_TASKS_LOCK');

/** Starts the periodic tasks with the worker; stops them before the database closes. */
@Injectable()
export class PeriodicTasks implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PeriodicTasks');
  private readonly schedule: LeaderSchedule;

  constructor(
    dataSource: DataSource,
    @Inject(LOCK_NAME) lockName: string,
    @Inject(TASKS) private readonly tasks: PeriodicTask[],
  ) {
    this.schedule = new LeaderSchedule(new LeaderLock(dataSource, lockName), tasks, this.logger);
  }

  onApplicationBootstrap(): void {
    this.schedule.start();
    const names = this.tasks.map((t) => `${t.name} every ${t.everyMs / 1000}s`).join(', ');
    this.logger.log(`periodic tasks, run by the leading worker: ${names}`);
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    await this.schedule.stop();
    this.logger.log(`periodic tasks stopped${signal ? ` (${signal})` : ''}, leadership released`);
  }
}

/** A worker's periodic tasks under its leader lock (API processes never import this). */
@Module({})
export class PeriodicTasksModule {
  static forRoot(options: PeriodicTasksOptions): DynamicModule {
    return {
      module: PeriodicTasksModule,
      imports: options.imports ?? [],
      providers: [
        { provide: LOCK_NAME, useValue: options.leaderLock },
        { provide: TASKS, inject: options.inject, useFactory: options.tasks },
        PeriodicTasks,
      ],
      exports: [PeriodicTasks],
    };
  }
}
