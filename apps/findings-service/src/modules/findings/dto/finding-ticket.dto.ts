import { ApiProperty } from '@nestjs/swagger';
import {
  FINDING_TICKET_ORIGINS as TICKET_ORIGINS,
  FINDING_TICKET_STATUSES as TICKET_STATUSES,
  type FindingTicket,
} from '../finding-view';

/** The finding's task in an external tracker: the `{ticket}` of the ticket routes and when it was linked. */
export class FindingTicketDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'the installed provider' })
  provider_plugin_id!: string;
  @ApiProperty({ description: 'the tracker’s id of the task' }) task_id!: string;
  @ApiProperty({ description: 'the human key, e.g. SEC-42' }) task_key!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ enum: TICKET_STATUSES }) status!: string;
  @ApiProperty({ description: 'the tracker’s own name of the state' }) raw_status!: string;
  @ApiProperty({ enum: TICKET_ORIGINS }) origin!: string;
  @ApiProperty({ description: 'findings linked to the task' }) finding_count!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  status_synced_at!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'why the service could not move the task in the tracker the last time it tried (provider error kind and words); null once a move succeeds',
  })
  sync_error!: string | null;
  @ApiProperty({ format: 'date-time', description: 'when this finding was linked to the task' })
  linked_at!: string;

  static from(t: FindingTicket | null): FindingTicketDto | null {
    if (!t) return null;
    return {
      id: t.id,
      provider_plugin_id: t.providerPluginId,
      task_id: t.taskId,
      task_key: t.taskKey,
      url: t.url,
      status: t.status,
      raw_status: t.rawStatus,
      origin: t.origin,
      finding_count: t.findingCount ?? 1,
      status_synced_at: t.statusSyncedAt ? t.statusSyncedAt.toISOString() : null,
      sync_error: t.syncError,
      linked_at: t.linkedAt.toISOString(),
    };
  }
}
