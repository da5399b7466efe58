import { Module } from '@nestjs/common';
import { MembershipGrantsRepository } from './membership-grants.repository';
import { MembershipGrantsService } from './membership-grants.service';

/** Imported by the auth module: membership grants of a signed-in user. */
@Module({
  providers: [MembershipGrantsRepository, MembershipGrantsService],
  exports: [MembershipGrantsService],
})
export class MembershipGrantsModule {}
