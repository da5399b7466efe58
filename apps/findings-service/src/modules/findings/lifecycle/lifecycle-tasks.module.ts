import { Module } from '@nestjs/common';
import { StateExpiryRepository } from './state-expiry.repository';
import { StateExpiryService } from './state-expiry.service';

/** The worker's side of the lifecycle: the periodic expiry transitions. */
@Module({
  providers: [StateExpiryRepository, StateExpiryService],
  exports: [StateExpiryService],
})
export class LifecycleTasksModule {}
