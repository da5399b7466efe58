import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { UsersController, UsersCsvController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [AuditModule],
  controllers: [UsersCsvController, UsersController],
  providers: [UsersRepository, RefreshTokensRepository, UsersService],
  exports: [UsersRepository, RefreshTokensRepository],
})
export class UsersModule {}
