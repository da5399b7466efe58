import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { LeaderLock, LeaderSchedule, type PeriodicTask } from '@platform/database';
import { DataSource } from 'typeorm';

/** The worker's periodic tasks (injection token). */
export const PERIODIC_TASKS = Symbol('PERIODIC_TASKS');

/** One leader among the worker replicas runs every periodic task. */
export const WORKER_LEADER_LOCK = 'certificate-service:worker-leader';

/** Starts the periodic tasks with the worker and hands leadership over when it stops. */
@Injectable()
export class PeriodicTasksService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PeriodicTasks');
  private readonly schedule: LeaderSchedule;

  constructor(
    dataSource: DataSource,
    @Inject(PERIODIC_TASKS) private readonly tasks: PeriodicTask[],
  ) {
    const lock = new LeaderLock(dataSource, WORKER_LEADER_LOCK);
    this.schedule = new LeaderSchedule(lock, tasks, this.logger);
  }

  onApplicationBootstrap(): void {
    this.schedule.start();
    const names = this.tasks.map((t) => `${t.name} every ${t.everyMs / 1000}s`).join(', ');
    this.logger.log(`periodic tasks, run by the leading worker: ${names}`);
  }

  /** Before the database closes: a running task finishes and the lock is released. */
  async beforeApplicationShutdown(signal?: string): Promise<void> {
    await this.schedule.stop();
    this.logger.log(`periodic tasks stopped${signal ? ` (${signal})` : ''}, leadership released`);
  }
}
