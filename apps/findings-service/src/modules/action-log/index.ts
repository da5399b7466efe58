export * from './finding-action';
export { ActionLogWriter } from './action-log.writer';
export { ActionLogRepository } from './action-log.repository';
export { ActionLogModule } from './action-log.module';
