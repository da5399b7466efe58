import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { AccessContext } from '../../app/access/access-context';
import { Clock } from '../../app/clock';
import { actorOf } from '../action-log/finding-action';
import { ProjectAccessService } from '../projects/project-access.service';
import { VisibilityService } from '../projects/visibility.service';
import { SlaError } from './sla.errors';
import type {
  SlaViolationCursor,
  SlaViolationFilters,
  SlaViolationView,
} from './sla-violation-view';
import { SlaViolationsRepository } from './sla-violations.repository';

export interface SlaViolationPage {
  items: SlaViolationView[];
  nextCursor: string | null;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2}){0,2}|Z)$/;

/** Opaque keyset cursor: base64url JSON of the last row's `opened_at` (text) and id. */
export function encodeViolationCursor(c: SlaViolationCursor): string {
  return Buffer.from(JSON.stringify({ t: c.openedAt, i: c.id }), 'utf8').toString('base64url');
}

export function decodeViolationCursor(text: string): SlaViolationCursor | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { t, i } = parsed as Record<string, unknown>;
  if (typeof t !== 'string' || !TIMESTAMP.test(t)) return undefined;
  if (typeof i !== 'string' || !isUUID(i, 'loose')) return undefined;
  return { openedAt: t, id: i };
}

/**
 * Deadline violations: listed within the caller's `read_findings` visibility (users by project
 * role, keys by grant; an invisible project and a missing one look the same), resolved by hand
 * by a user who may write the finding's project (analyst/admin).
 */
@Injectable()
export class SlaViolationsService {
  constructor(
    private readonly violations: SlaViolationsRepository,
    private readonly visibility: VisibilityService,
    private readonly projectAccess: ProjectAccessService,
    private readonly clock: Clock,
  ) {}

  async list(
    access: AccessContext,
    filters: SlaViolationFilters,
    page: { cursor?: string; limit: number },
  ): Promise<SlaViolationPage> {
    const cursor = page.cursor === undefined ? undefined : decodeViolationCursor(page.cursor);
    if (page.cursor !== undefined && !cursor) throw new SlaError('sla_cursor_invalid');
    const rows = await this.violations.list(
      this.visibility.scope(access, 'read_findings'),
      filters,
      cursor,
      page.limit + 1,
    );
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    return {
      items,
      nextCursor:
        rows.length > page.limit && last
          ? encodeViolationCursor({ openedAt: last.cursorAt, id: last.id })
          : null,
    };
  }

  /** Closes an open violation by hand (resolution `manual`), with an action-log entry. */
  async resolve(
    access: AccessContext,
    id: string,
    comment: string | null,
  ): Promise<SlaViolationView> {
    const notFound = (): Error => new SlaError('sla_violation_not_found');
    const result = await this.violations.withLockedViolation(id, async (violation, tx) => {
      const target = { projectId: violation.projectId, productId: violation.productId };
      if (!access.can('read_findings', target)) throw notFound();
      this.projectAccess.require(access, 'write_findings', target, notFound);
      if (violation.resolvedAt) throw new SlaError('sla_violation_resolved');
      await tx.resolve(violation, {
        resolution: 'manual',
        actor: actorOf(access),
        comment: comment?.trim() || null,
        now: this.clock.now(),
      });
      return tx.reload(id);
    });
    if (!result) throw notFound();
    return result;
  }
}
