import { Injectable } from '@nestjs/common';
import { InputValidationError } from '@platform/errors';
import type { AccessContext } from '../../app/access/access-context';
import { ProjectsError } from '../projects/projects.errors';
import { DeliveryJobs } from './delivery-jobs';
import {
  NotificationDeliveriesRepository,
  type DeliveryRow,
  type DeliveryView,
} from './notification-deliveries.repository';
import type { DeliveryState } from './notification-kinds';
import { NotificationsError } from './notifications.errors';

export interface DeliveryPage {
  items: DeliveryView[];
  nextCursor: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function encodeCursor(row: DeliveryRow): string {
  return Buffer.from(JSON.stringify([row.createdKey, row.id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [
      unknown,
      unknown,
    ];
    if (
      typeof createdAt === 'string' &&
      !Number.isNaN(Date.parse(createdAt)) &&
      typeof id === 'string' &&
      UUID.test(id)
    ) {
      return { createdAt, id };
    }
  } catch {
    // refused below
  }
  throw new InputValidationError([
    { field: 'cursor', problems: ['not a next_cursor of this list'] },
  ]);
}

/**
 * Deliveries of a project for its administrators (§1.8): the list with the last error, and a
 * failed delivery put back to pending. `manage_notifications` on the project; a caller who is
 * not a member gets 404, a member without the permission 403.
 */
@Injectable()
export class NotificationDeliveriesService {
  constructor(
    private readonly repository: NotificationDeliveriesRepository,
    private readonly jobs: DeliveryJobs,
  ) {}

  private async assertManager(access: AccessContext, projectId: string): Promise<void> {
    const member =
      access.can('read_findings', { projectId }) ||
      access.can('manage_notifications', { projectId });
    if (!member || !(await this.repository.projectExists(projectId))) {
      throw new ProjectsError('project_not_found');
    }
    if (!access.can('manage_notifications', { projectId })) {
      throw new ProjectsError('access_denied');
    }
  }

  async list(
    access: AccessContext,
    projectId: string,
    query: { state?: DeliveryState; pluginId?: string; limit: number; cursor?: string },
  ): Promise<DeliveryPage> {
    await this.assertManager(access, projectId);
    const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows = await this.repository.list({
      projectId,
      state: query.state,
      pluginId: query.pluginId,
      before,
      limit: query.limit + 1,
    });
    const items = rows.slice(0, query.limit);
    const last = items[items.length - 1];
    return {
      items,
      nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
    };
  }

  async retry(access: AccessContext, projectId: string, id: string): Promise<DeliveryView> {
    await this.assertManager(access, projectId);
    const current = await this.repository.get(projectId, id);
    if (!current) throw new NotificationsError('delivery_not_found', { delivery_id: id });
    if (!(await this.repository.retry(projectId, id))) {
      const now = await this.repository.get(projectId, id);
      throw new NotificationsError('delivery_not_retryable', {
        state: now?.state ?? current.state,
      });
    }
    await this.jobs.add([{ id, attempts: 0, suffix: `m${Date.now()}` }]);
    const after = await this.repository.get(projectId, id);
    return after ?? current;
  }
}
