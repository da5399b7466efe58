import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { PrincipalAliasesRepository } from './principal-aliases.repository';
import { PrincipalAliasesService } from './principal-aliases.service';

/** Shared accounts (principal aliases) and the login names of a person. */
@Module({
  imports: [AuditModule],
  providers: [PrincipalAliasesRepository, PrincipalAliasesService],
  exports: [PrincipalAliasesService],
})
export class PrincipalAliasesModule {}
