import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ServiceAccountsController } from './service-accounts.controller';
import { ServiceAccountsRepository } from './service-accounts.repository';
import { ServiceAccountsService } from './service-accounts.service';

@Module({
  imports: [AuditModule],
  controllers: [ServiceAccountsController],
  providers: [ServiceAccountsRepository, ServiceAccountsService],
  exports: [ServiceAccountsService],
})
export class ServiceAccountsModule {}
