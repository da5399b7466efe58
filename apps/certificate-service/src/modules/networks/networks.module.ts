import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CaModule } from '../ca/ca.module';
import { AgentNetworksService } from './agent-networks.service';
import { NetworksController } from './networks.controller';
import { NetworksRepository } from './networks.repository';
import { NetworksService } from './networks.service';

/** Wi-Fi and wired 802.1X profiles (`networks`) and what agents receive of them. */
@Module({
  imports: [AuditModule, CaModule],
  controllers: [NetworksController],
  providers: [NetworksRepository, NetworksService, AgentNetworksService],
  exports: [AgentNetworksService],
})
export class NetworksModule {}
