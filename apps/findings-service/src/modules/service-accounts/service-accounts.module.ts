import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ServiceAccountPermissionEntity } from './service-account-permission.entity';
import { ServiceAccountEntity } from './service-account.entity';
import { ServiceAccountsController } from './service-accounts.controller';
import { ServiceAccountsRepository } from './service-accounts.repository';
import { ServiceAccountsService } from './service-accounts.service';

@Module({
  imports: [TypeOrmModule.forFeature([ServiceAccountEntity, ServiceAccountPermissionEntity])],
  controllers: [ServiceAccountsController],
  providers: [ServiceAccountsRepository, ServiceAccountsService],
  exports: [ServiceAccountsService],
})
export class ServiceAccountsModule {}
