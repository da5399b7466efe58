import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MembershipGrantsService } from './membership-grants.service';
import { ProjectMemberEntity } from './project-member.entity';

/** Imported by the auth module: membership grants of a signed-in user. */
@Module({
  imports: [TypeOrmModule.forFeature([ProjectMemberEntity])],
  providers: [MembershipGrantsService],
  exports: [MembershipGrantsService],
})
export class MembershipGrantsModule {}
