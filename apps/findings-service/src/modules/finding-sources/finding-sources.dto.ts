import { ApiProperty } from '@nestjs/swagger';
import type { SyncRecord } from './finding-sources.repository';

/** A finding source's poll (sync-now's answer, the last sync of sync-status). */
export class FindingSourceSyncDto {
  @ApiProperty({ format: 'uuid' }) plugin_id!: string;
  @ApiProperty({ enum: ['ok', 'failed'] }) outcome!: string;
  @ApiProperty({ enum: ['manual', 'schedule'] }) trigger!: string;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ format: 'date-time' }) finished_at!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'why the poll failed: the plugin poll-error (unreachable, unauthorized, misconfigured, failed) or a runner code',
  })
  error_code!: string | null;
  @ApiProperty({ type: String, nullable: true }) error_message!: string | null;
  @ApiProperty() nodes!: number;
  @ApiProperty() findings_seen!: number;
  @ApiProperty() findings_created!: number;
  @ApiProperty() findings_closed!: number;
  @ApiProperty() nodes_vanished!: number;
  @ApiProperty({
    description:
      'the poll answered no node while nodes were recorded: vanished nodes not reconciled',
  })
  reconciliation_skipped!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_success_at!: string | null;

  static from(r: SyncRecord): FindingSourceSyncDto {
    return {
      plugin_id: r.installedPluginId,
      outcome: r.outcome,
      trigger: r.trigger,
      started_at: r.startedAt.toISOString(),
      finished_at: r.finishedAt.toISOString(),
      error_code: r.errorCode,
      error_message: r.errorMessage,
      nodes: r.nodes,
      findings_seen: r.findingsSeen,
      findings_created: r.findingsCreated,
      findings_closed: r.findingsClosed,
      nodes_vanished: r.nodesVanished,
      reconciliation_skipped: r.reconciliationSkipped,
      last_success_at: r.lastSuccessAt ? r.lastSuccessAt.toISOString() : null,
    };
  }
}

export class FindingSourceStatusDto {
  @ApiProperty({ format: 'uuid' }) plugin_id!: string;
  @ApiProperty({ type: FindingSourceSyncDto, nullable: true })
  last_sync!: FindingSourceSyncDto | null;
}
