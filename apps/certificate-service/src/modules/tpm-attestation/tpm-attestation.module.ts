import { Module } from '@nestjs/common';
import { TpmRootsModule } from '../tpm-roots/tpm-roots.module';
import { TpmChallengeService } from './tpm-challenge.service';
import { TpmEvidenceVerifier } from './tpm-evidence.verifier';

/** TPM 2.0 attestation of enrollments: the activation challenge and the evidence check. */
@Module({
  imports: [TpmRootsModule],
  providers: [TpmChallengeService, TpmEvidenceVerifier],
  exports: [TpmChallengeService, TpmEvidenceVerifier],
})
export class TpmAttestationModule {}
