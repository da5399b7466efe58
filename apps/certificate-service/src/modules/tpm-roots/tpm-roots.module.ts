import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { TpmRootsController } from './tpm-roots.controller';
import { TpmRootsRepository } from './tpm-roots.repository';
import { TpmRootsService } from './tpm-roots.service';

/** TPM vendor roots (`tpm_vendor_roots`) and the EK certificate chain check against them. */
@Module({
  imports: [AuditModule],
  controllers: [TpmRootsController],
  providers: [TpmRootsRepository, TpmRootsService],
  exports: [TpmRootsService],
})
export class TpmRootsModule {}
