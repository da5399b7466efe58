import { Module } from '@nestjs/common';
import { AutoClosureCoreModule } from './auto-closure-core.module';
import { ClosureCheckProcessor } from './jobs/closure-check.processor';

/** Worker side: the closure-check queue's consumer. */
@Module({ imports: [AutoClosureCoreModule], providers: [ClosureCheckProcessor] })
export class AutoClosureWorkerModule {}
