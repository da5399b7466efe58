import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActionLogRepository } from './action-log.repository';
import { ActionLogWriter } from './action-log.writer';
import { FindingActionEntity } from './finding-action.entity';

/** The findings action log: `ActionLogWriter` for every module that changes findings. */
@Module({
  imports: [TypeOrmModule.forFeature([FindingActionEntity])],
  providers: [ActionLogWriter, ActionLogRepository],
  exports: [ActionLogWriter, ActionLogRepository],
})
export class ActionLogModule {}
