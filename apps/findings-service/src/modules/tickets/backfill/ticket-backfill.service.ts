import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { addJob } from '@platform/queue';
import type { AccessContext } from '../../../app/access/access-context';
import { FINDING_STATUS_GROUPS } from '../../findings/finding-status';
import { SEVERITIES } from '../../findings/list/finding-filters';
import { ProjectPluginConfig } from '../../plugin-channels/project-plugin-config';
import { TicketProviderGateway } from '../ticket-provider.gateway';
import { TicketsError } from '../tickets.errors';
import { TICKET_BACKFILL, type TicketBackfillMode } from './ticket-backfill.job';
import { TicketBackfillQueue } from './ticket-backfill-queue.provider';
import { TicketBackfillsRepository } from './ticket-backfills.repository';

export interface StartBackfillInput {
  mode?: TicketBackfillMode;
  minSeverity?: (typeof SEVERITIES)[number];
  statuses?: string[];
}

/** Severities at or above `min` (all without one). */
export function severitiesFrom(min: (typeof SEVERITIES)[number] | undefined): string[] {
  return min ? SEVERITIES.slice(0, SEVERITIES.indexOf(min) + 1) : [...SEVERITIES];
}

/**
 * Starts a project's history backfill (design §3.6): one running per project (409
 * `ticket_backfill_running`), a `ticket_backfills` row and a `ticket-backfill` job with the
 * same id. Needs manage_notifications and a configured provider.
 */
@Injectable()
export class TicketBackfillService {
  constructor(
    private readonly backfills: TicketBackfillsRepository,
    private readonly queue: TicketBackfillQueue,
    private readonly gateway: TicketProviderGateway,
    private readonly projectConfig: ProjectPluginConfig,
  ) {}

  async start(
    access: AccessContext,
    projectId: string,
    input: StartBackfillInput,
  ): Promise<{ jobId: string }> {
    await this.projectConfig.assertVisible(access, projectId);
    this.projectConfig.assertWriter(access, projectId);
    await this.gateway.forProject(projectId);
    const id = `tbf-${randomUUID()}`;
    const mode = input.mode ?? 'link_only';
    const startedBy = access.principal.kind === 'user' ? access.principal.id : null;
    if (!(await this.backfills.start({ id, projectId, mode, startedBy }))) {
      throw new TicketsError('ticket_backfill_running', { project_id: projectId });
    }
    const data = {
      backfillId: id,
      projectId,
      mode,
      statuses: input.statuses ?? [...FINDING_STATUS_GROUPS.open],
      severities: severitiesFrom(input.minSeverity),
    };
    try {
      await addJob(this.queue.queue, TICKET_BACKFILL, data, {
        jobId: id,
        attempts: 1,
        removeOnComplete: { age: 7 * 24 * 3600 },
        removeOnFail: { age: 30 * 24 * 3600 },
      });
    } catch (error) {
      await this.backfills.discard(id);
      throw error;
    }
    return { jobId: id };
  }
}
