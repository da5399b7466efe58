import { Module } from '@nestjs/common';
import { IssuanceDirectivesModule } from '../issuance-directives/issuance-directives.module';
import { LogSnapshotsModule } from '../log-snapshots/log-snapshots.module';
import { RequestsModule } from '../requests/requests.module';
import { DevicesModule } from '../devices/devices.module';
import { AgentSecretGuard } from '../agent-auth/agent-secret.guard';
import { AgentController } from './agent.controller';
import { AgentService } from './agent.service';
import { RateLimitsModule } from '../../app/http/rate-limits.module';

/** `/api/v1/requests/:id/*` for the agent (X-Agent-Secret). */
@Module({
  imports: [
    RequestsModule,
    RateLimitsModule,
    IssuanceDirectivesModule,
    LogSnapshotsModule,
    DevicesModule,
  ],
  controllers: [AgentController],
  providers: [AgentService, AgentSecretGuard],
})
export class AgentModule {}
