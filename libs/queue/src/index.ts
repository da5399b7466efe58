export * from './add-job';
export * from './job-contract';
export * from './queue.errors';
export * from './redis-connection';
export * from './producer-queue';
export * from './job-trace';
export * from './queue-consumer';
