import { Module } from '@nestjs/common';
import { OutboundHttpModule } from '../outbound-http/outbound-http.module';
import { AutoClosureService } from './auto-closure.service';
import { ClosureCheckRepository } from './closure-check.repository';
import { ClosureCheckService } from './closure-check.service';
import { ClosureRepository } from './closure.repository';
import { AutoClosureQueue } from './jobs/auto-closure-queue.provider';
import { VerificationEndpointsRepository } from './verification-endpoints.repository';
import { VerificationRequester } from './verification-requester.service';
import { VerificationsRepository } from './verifications.repository';

/**
 * The automatic closure for both processes: checks (queued after ingestion, run by the worker),
 * closures under the cap, re-verification requests and the scanners' answers.
 */
@Module({
  imports: [OutboundHttpModule],
  providers: [
    ClosureCheckRepository,
    ClosureRepository,
    VerificationsRepository,
    VerificationEndpointsRepository,
    AutoClosureService,
    VerificationRequester,
    ClosureCheckService,
    AutoClosureQueue,
  ],
  exports: [
    AutoClosureService,
    ClosureCheckService,
    VerificationRequester,
    VerificationsRepository,
    VerificationEndpointsRepository,
    OutboundHttpModule,
  ],
})
export class AutoClosureCoreModule {}
