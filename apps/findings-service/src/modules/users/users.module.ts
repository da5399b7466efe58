import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActionLogModule } from '../action-log/action-log.module';
import { RefreshTokenEntity } from './refresh-token.entity';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { UserEntity } from './user.entity';
import { UserLifecycleRepository } from './user-lifecycle.repository';
import { UserLifecycleService } from './user-lifecycle.service';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, RefreshTokenEntity]), ActionLogModule],
  controllers: [UsersController],
  providers: [
    UsersRepository,
    UsersService,
    UserLifecycleRepository,
    UserLifecycleService,
    RefreshTokensRepository,
  ],
  exports: [UsersService, RefreshTokensRepository],
})
export class UsersModule {}
