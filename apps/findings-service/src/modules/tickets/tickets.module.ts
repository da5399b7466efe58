import { Module } from '@nestjs/common';
import { PluginChannelsModule } from '../plugin-channels/plugin-channels.module';
import { PluginsModule } from '../plugins/plugins.module';
import { TicketBackfillController } from './backfill/ticket-backfill.controller';
import { TicketBackfillQueue } from './backfill/ticket-backfill-queue.provider';
import { TicketBackfillService } from './backfill/ticket-backfill.service';
import { TicketBackfillsRepository } from './backfill/ticket-backfills.repository';
import { TicketConfigController, TicketProvidersController } from './ticket-config.controller';
import { TicketConfigService } from './ticket-config.service';
import { TicketProvidersService } from './ticket-providers.service';
import { TicketProviderGateway } from './ticket-provider.gateway';
import { FindingTicketsController, TicketTargetsController } from './tickets.controller';
import { TicketsRepository } from './tickets.repository';
import { TicketsService } from './tickets.service';
import { TicketStatusRepository } from './ticket-status.repository';
import { TicketStatusSync } from './ticket-status-sync';
import { TicketWebhookController } from './ticket-webhook.controller';
import { TicketWebhookService } from './ticket-webhook.service';
import { TicketSettingsRepository } from './ticket-settings.repository';

/** Tickets in an external tracker (docs/findings-service/tickets.md). */
@Module({
  imports: [PluginsModule, PluginChannelsModule],
  controllers: [
    TicketProvidersController,
    TicketConfigController,
    TicketTargetsController,
    FindingTicketsController,
    TicketWebhookController,
    TicketBackfillController,
  ],
  providers: [
    TicketSettingsRepository,
    TicketsRepository,
    TicketConfigService,
    TicketProvidersService,
    TicketProviderGateway,
    TicketsService,
    TicketStatusRepository,
    TicketStatusSync,
    TicketWebhookService,
    TicketBackfillsRepository,
    TicketBackfillQueue,
    TicketBackfillService,
  ],
  exports: [TicketsService],
})
export class TicketsModule {}
