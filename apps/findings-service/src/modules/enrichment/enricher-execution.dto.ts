import { ApiProperty } from '@nestjs/swagger';
import { ENRICHER_EXECUTION_STATES, type EnricherExecutionState } from './enricher-execution-state';

/** Answer of GET /admin/installed-plugins/{id}/execution (docs/plugins/fairness.md). */
export class EnricherExecutionDto {
  @ApiProperty({ format: 'uuid' }) plugin_id!: string;

  @ApiProperty({
    enum: ENRICHER_EXECUTION_STATES,
    description:
      '`active`: its enrichment jobs run. `backed_off`: its jobs wait until `until` (jobs kept failing on the deadline or a trap). `suspended`: its jobs fail at once until an administrator changes the installation (settings, version, disable and enable).',
  })
  state!: string;

  @ApiProperty({ type: String, nullable: true, description: 'why it is backed off or suspended' })
  reason!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  since!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'end of a back-off',
  })
  until!: string | null;

  @ApiProperty({
    description:
      'jobs in a row that failed on the deadline or a trap since the last success or back-off',
  })
  strikes!: number;

  @ApiProperty({ description: 'back-offs in a row since the last job that enriched something' })
  back_offs!: number;

  static from(pluginId: string, s: EnricherExecutionState): EnricherExecutionDto {
    return {
      plugin_id: pluginId,
      state: s.state,
      reason: s.reason,
      since: s.since?.toISOString() ?? null,
      until: s.until?.toISOString() ?? null,
      strikes: s.strikes,
      back_offs: s.backOffs,
    };
  }
}
