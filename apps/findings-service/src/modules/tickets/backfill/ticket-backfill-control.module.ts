import { Module } from '@nestjs/common';
import { TicketBackfillControl } from './ticket-backfill-control';
import { TicketBackfillsRepository } from './ticket-backfills.repository';

/** What the jobs API needs of ticket backfills (their rows stay the tickets module's). */
@Module({
  providers: [TicketBackfillsRepository, TicketBackfillControl],
  exports: [TicketBackfillControl],
})
export class TicketBackfillControlModule {}
