import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../../app/access/access-context';
import { Clock } from '../../../app/clock';
import { actorOf, type ActionLogEntry } from '../../action-log/finding-action';
import { ProjectAccessService } from '../../projects/project-access.service';
import { findingSources } from '../finding-sources';
import { FindingsApiError } from '../findings-api.errors';
import { FindingMergeError } from './finding-merge.errors';
import {
  FindingMergesRepository,
  type FindingMergeTx,
  type MergedMember,
  type MergeRow,
} from './finding-merges.repository';

export interface MergeResult {
  mergeId: string;
  survivorId: string;
  mergedIds: string[];
}

export interface UnmergeResult {
  survivorId: string;
  unmergedIds: string[];
}

const notFound = (id: string): Error => new FindingsApiError('finding_not_found', { id });

/** The entry of `id` (checked present by the caller; 404 otherwise). */
function pick<T>(map: Map<string, T>, id: string): T {
  const value = map.get(id);
  if (value === undefined) throw notFound(id);
  return value;
}

/**
 * The `sources` entries a member brings to its survivor: every entry of the member (its latest
 * scanner's implied one included), keyed `<scanner>@<member id>` so that they never collide with
 * the survivor's own per-scanner keys (which ingestion maintains) and an unmerge finds them.
 */
export function memberSourceEntries(member: MergeRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [scanner, entry] of Object.entries(findingSources(member))) {
    const base = entry !== null && typeof entry === 'object' ? entry : { value: entry };
    out[`${scanner}@${member.id}`] = { ...base, merged_from: member.id };
  }
  return out;
}

/**
 * Manual merge and unmerge (docs/findings-service/merge.md). User tokens only (the controller);
 * `write_findings` on the findings' project (analyst, admin). One transaction each, holding the
 * product FOR UPDATE (ingestion of the product waits) and the findings FOR UPDATE.
 */
@Injectable()
export class FindingMergeService {
  constructor(
    private readonly merges: FindingMergesRepository,
    private readonly projectAccess: ProjectAccessService,
    private readonly clock: Clock,
  ) {}

  async merge(
    access: AccessContext,
    survivorId: string,
    findingIds: readonly string[],
  ): Promise<MergeResult> {
    const memberIds = [...new Set(findingIds)];
    if (memberIds.includes(survivorId)) {
      throw new FindingMergeError('merge_into_self', { finding_id: survivorId });
    }
    const all = [survivorId, ...memberIds];
    const productId = await this.productOf(access, all);
    return this.merges.transaction(async (tx) => {
      if (!(await tx.lockProduct(productId))) throw notFound(survivorId);
      const rows = await this.lockVisible(access, tx, all);
      const survivor = pick(rows, survivorId);
      for (const row of rows.values()) {
        this.projectAccess.require(access, 'write_findings', row, () => notFound(row.id));
      }
      for (const row of rows.values()) {
        if (row.productId !== survivor.productId) {
          throw new FindingMergeError('merge_products_differ', { finding_id: row.id });
        }
        if (row.mergedIntoId !== null) {
          throw new FindingMergeError('finding_already_merged', { finding_id: row.id });
        }
        if (row.id !== survivorId && row.memberCount > 0) {
          throw new FindingMergeError('merge_member_has_members', { finding_id: row.id });
        }
      }
      const now = this.clock.now();
      const actor = actorOf(access);
      const mergeId = randomUUID();
      const members = memberIds.map((id) => pick(rows, id));
      const added: Record<string, unknown> = {};
      const entries = members.map((m) => {
        const memberSources = memberSourceEntries(m);
        Object.assign(added, memberSources);
        return { memberId: m.id, memberSources };
      });
      await tx.merge(survivorId, memberIds, added, now);
      await tx.record(
        {
          mergeId,
          survivorId,
          productId: survivor.productId,
          projectId: survivor.projectId,
          survivorSourcesBefore: survivor.sources,
          members: entries,
        },
        actor,
        now,
      );
      const log: ActionLogEntry[] = members.map((m) => ({
        findingId: m.id,
        projectId: m.projectId,
        actor,
        action: 'merged',
        from: null,
        to: { merged_into_id: survivorId, merge_id: mergeId },
        at: now,
      }));
      log.push({
        findingId: survivorId,
        projectId: survivor.projectId,
        actor,
        action: 'merged',
        from: null,
        to: { members: memberIds, merge_id: mergeId },
        at: now,
      });
      await tx.log(log);
      return { mergeId, survivorId, mergedIds: memberIds };
    });
  }

  /**
   * Unmerge of a merged finding detaches it from its survivor; unmerge of a survivor detaches
   * every finding merged into it. Anything else: 422 finding_not_merged.
   */
  async unmerge(access: AccessContext, id: string): Promise<UnmergeResult> {
    const productId = await this.productOf(access, [id]);
    return this.merges.transaction(async (tx) => {
      if (!(await tx.lockProduct(productId))) throw notFound(id);
      const target = pick(await this.lockVisible(access, tx, [id]), id);
      this.projectAccess.require(access, 'write_findings', target, () => notFound(id));
      const survivorId = target.mergedIntoId ?? id;
      const memberIds = target.mergedIntoId !== null ? [id] : await tx.memberIds(id);
      if (memberIds.length === 0) throw new FindingMergeError('finding_not_merged');
      const rows = await tx.lockFindings([survivorId, ...memberIds]);
      const now = this.clock.now();
      const actor = actorOf(access);
      await tx.unmerge(survivorId, memberIds, actor, now);
      await tx.log(
        rows.map((r) => ({
          findingId: r.id,
          projectId: r.projectId,
          actor,
          action: 'unmerged',
          from:
            r.id === survivorId
              ? { members: memberIds.filter((m) => m !== r.id) }
              : { merged_into_id: survivorId },
          to: null,
          at: now,
        })),
      );
      return { survivorId, unmergedIds: memberIds };
    });
  }

  /** What the survivor's page lists (read access is the caller's: checked by the finding read). */
  members(survivorId: string): Promise<MergedMember[]> {
    return this.merges.members(survivorId);
  }

  /** The one product of `ids`; 404 for an id that is missing or that the caller cannot see. */
  private async productOf(access: AccessContext, ids: readonly string[]): Promise<string> {
    const targets = new Map((await this.merges.targets(ids)).map((t) => [t.id, t]));
    for (const id of ids) {
      const t = targets.get(id);
      if (!t || !access.can('read_findings', t)) throw notFound(id);
    }
    return pick(targets, ids[0] ?? '').productId;
  }

  /** The rows locked; 404 for any that vanished or that the caller cannot see. */
  private async lockVisible(
    access: AccessContext,
    tx: FindingMergeTx,
    ids: readonly string[],
  ): Promise<Map<string, MergeRow>> {
    const rows = new Map((await tx.lockFindings(ids)).map((r) => [r.id, r]));
    for (const id of ids) {
      const r = rows.get(id);
      if (!r || !access.can('read_findings', r)) throw notFound(id);
    }
    return rows;
  }
}
