import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { VisibleScope } from '../../projects/visibility.service';
import type { Actor } from '../../action-log/finding-action';
import { insertFindingActionsSql } from '../../action-log/finding-actions.sql';
import { bulkTargetSql, type BulkTarget } from '../list/bulk-selection';
import { FINDINGS_FROM, SqlParams } from '../list/finding-selection.sql';
import { MAX_TAGS_PER_FINDING } from './finding-tags';

export interface BulkTagCounts {
  matched: number;
  changed: number;
  overLimit: number;
}

/** One action-log entry per finding of CTE `changed` (actor: $4 type, $5 id, $6 label). */
const LOGGED = insertFindingActionsSql(
  [
    'finding_id',
    'project_id',
    'actor_type',
    'actor_id',
    'actor_label',
    'action',
    'from_value',
    'to_value',
  ],
  `SELECT id, project_id, $4, $5::uuid, $6,
         CASE WHEN new_tags @> old_tags THEN 'tag_added'
              WHEN old_tags @> new_tags THEN 'tag_removed'
              ELSE 'tags_changed' END,
         jsonb_build_object('tags', to_jsonb(old_tags)),
         jsonb_build_object('tags', to_jsonb(new_tags))
    FROM changed`,
);

/**
 * One set-based statement: new tag arrays computed in SQL, changed rows updated, and one
 * action-log entry per changed finding (tag_added / tag_removed / tags_changed) inserted from
 * the UPDATE's RETURNING — same transaction as the selection lock.
 */
const APPLY = `
WITH computed AS (
  SELECT f.id, f.project_id, f.tags AS old_tags,
         ARRAY(SELECT DISTINCT t FROM unnest(f.tags || $2::text[]) AS t
                WHERE NOT (t = ANY($3::text[])) ORDER BY t) AS new_tags
    FROM findings f WHERE f.id = ANY($1::uuid[])
), changed AS (
  UPDATE findings f SET tags = c.new_tags, updated_at = now()
    FROM computed c
   WHERE f.id = c.id AND NOT (c.new_tags @> c.old_tags AND c.old_tags @> c.new_tags)
     AND cardinality(c.new_tags) <= $7
  RETURNING f.id, f.project_id, c.old_tags, c.new_tags
), logged AS (
  ${LOGGED}
  RETURNING 1
)
SELECT (SELECT count(*) FROM changed)::int AS changed,
       (SELECT count(*) FROM logged)::int AS logged,
       (SELECT count(*) FROM computed
         WHERE cardinality(new_tags) > $7
           AND NOT (new_tags @> old_tags AND old_tags @> new_tags))::int AS over_limit`;

@Injectable()
export class BulkTagsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Locks the writable findings of the target (at most `max + 1` are read) and applies the
   * change; returns `undefined` (nothing written) when the target holds more than `max`.
   */
  apply(
    scope: VisibleScope,
    target: BulkTarget,
    change: { add: string[]; remove: string[]; actor: Actor; max: number },
  ): Promise<BulkTagCounts | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const ids = await lockTargets(manager, scope, target, change.max + 1);
      if (ids.length > change.max) return undefined;
      if (ids.length === 0) return { matched: 0, changed: 0, overLimit: 0 };
      const [row] = (await manager.query(APPLY, [
        ids,
        change.add,
        change.remove,
        change.actor.type,
        change.actor.id,
        change.actor.label,
        MAX_TAGS_PER_FINDING,
      ])) as { changed: number; over_limit: number }[];
      return { matched: ids.length, changed: row?.changed ?? 0, overLimit: row?.over_limit ?? 0 };
    });
  }
}

async function lockTargets(
  manager: EntityManager,
  scope: VisibleScope,
  target: BulkTarget,
  limit: number,
): Promise<string[]> {
  const params = new SqlParams();
  const where = bulkTargetSql(scope, target, params);
  const rows = (await manager.query(
    `SELECT f.id FROM ${FINDINGS_FROM} WHERE ${where.join(' AND ')}
      ORDER BY f.id LIMIT ${params.add(limit)} FOR UPDATE OF f`,
    params.values,
  )) as { id: string }[];
  return rows.map((r) => r.id);
}
