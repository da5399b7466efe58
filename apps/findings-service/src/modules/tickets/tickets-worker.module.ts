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
import { TicketSyncFeed } from './sync/ticket-sync.feed';
import { TicketSyncProcessor } from './sync/ticket-sync.processor';
import { TicketSyncQueue } from './sync/ticket-sync-queue.provider';
import { TicketSyncRepository } from './sync/ticket-sync.repository';
import { TicketSyncRunner } from './sync/ticket-sync.runner';

/**
 * Worker side of tickets: the ticket-backfill and ticket-sync queues' consumers (every
 * replica), the status poll and the sync feed (exported for the leader's periodic tasks).
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
    TicketSyncRepository,
    TicketSyncQueue,
    TicketSyncRunner,
    TicketSyncProcessor,
    TicketSyncFeed,
  ],
  exports: [TicketStatusPoller, TicketSyncFeed],
})
export class TicketsWorkerModule {}
