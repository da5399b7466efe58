import { Module } from '@nestjs/common';
import { PluginChannelsModule } from '../plugin-channels/plugin-channels.module';
import { PluginsModule } from '../plugins/plugins.module';
import { TicketBackfillProcessor } from './backfill/ticket-backfill.processor';
import { TicketBackfillRunner } from './backfill/ticket-backfill.runner';
import { TicketBackfillsRepository } from './backfill/ticket-backfills.repository';
import { TicketProviderGateway } from './ticket-provider.gateway';
import { TicketSettingsRepository } from './ticket-settings.repository';
import { TicketStatusPoller } from './ticket-status.poller';
import { TicketStatusRepository } from './ticket-status.repository';
import { TicketStatusSync } from './ticket-status-sync';
import { TicketsRepository } from './tickets.repository';

/**
 * Worker side of tickets: the ticket-backfill queue's consumer (every replica) and the status
 * poll (exported for the leader's periodic tasks).
 */
@Module({
  imports: [PluginsModule, PluginChannelsModule],
  providers: [
    TicketSettingsRepository,
    TicketsRepository,
    TicketProviderGateway,
    TicketBackfillsRepository,
    TicketBackfillRunner,
    TicketBackfillProcessor,
    TicketStatusRepository,
    TicketStatusSync,
    TicketStatusPoller,
  ],
  exports: [TicketStatusPoller],
})
export class TicketsWorkerModule {}
