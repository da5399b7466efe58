import { Module } from '@nestjs/common';
import { AutoClosureCoreModule } from '../auto-closure/auto-closure-core.module';
import { CallbackReplayGuard } from './callback-replay.guard';
import { ScannerCallbackKeysController } from './scanner-callback-keys.controller';
import { ScannerCallbackKeysRepository } from './scanner-callback-keys.repository';
import { ScannerCallbackKeysService } from './scanner-callback-keys.service';
import { ScannerCallbacksController } from './scanner-callbacks.controller';
import { ScannerCallbacksService } from './scanner-callbacks.service';

/** Scanner callbacks (signed answers) and the administration of their keys. */
@Module({
  imports: [AutoClosureCoreModule],
  controllers: [ScannerCallbacksController, ScannerCallbackKeysController],
  providers: [
    ScannerCallbackKeysRepository,
    ScannerCallbackKeysService,
    ScannerCallbacksService,
    CallbackReplayGuard,
  ],
})
export class ScannerCallbacksModule {}
