import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { PrincipalAliasesController } from './principal-aliases.controller';
import { PrincipalAliasesRepository } from './principal-aliases.repository';
import { PrincipalAliasesService } from './principal-aliases.service';

/** Shared accounts (principal aliases) and the login names of a person. */
@Module({
  imports: [AuditModule],
  controllers: [PrincipalAliasesController],
  providers: [PrincipalAliasesRepository, PrincipalAliasesService],
  exports: [PrincipalAliasesService],
})
export class PrincipalAliasesModule {}
