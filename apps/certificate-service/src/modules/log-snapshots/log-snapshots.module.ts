import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../../app/http/rate-limits.module';
import { AgentSecretGuard } from '../agent-auth/agent-secret.guard';
import { AuditModule } from '../audit/audit.module';
import { DevicesModule } from '../devices/devices.module';
import { RequestsModule } from '../requests/requests.module';
import { LogSnapshotFiles } from './log-snapshot-files';
import { LogSnapshotsAgentController } from './log-snapshots-agent.controller';
import { LogSnapshotsController } from './log-snapshots.controller';
import { LogSnapshotsRepository } from './log-snapshots.repository';
import { LogSnapshotsService } from './log-snapshots.service';
import { LogSnapshotsRetention } from './log-snapshots-retention';

/**
 * Agent log snapshots (owner of `device_log_snapshots` and `device_log_requests`): the
 * agent's upload, the admin routes, the snapshot request read by `checkin`, the purge.
 */
@Module({
  imports: [AuditModule, DevicesModule, RequestsModule, RateLimitsModule],
  controllers: [LogSnapshotsAgentController, LogSnapshotsController],
  providers: [LogSnapshotsRepository, LogSnapshotFiles, LogSnapshotsService, AgentSecretGuard],
  exports: [LogSnapshotsService],
})
export class LogSnapshotsModule {}

/** The worker's view: the purge only, no routes. */
@Module({
  providers: [LogSnapshotsRepository, LogSnapshotFiles, LogSnapshotsRetention],
  exports: [LogSnapshotsRetention],
})
export class LogSnapshotsRetentionModule {}
