import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActionLogWriter } from '../../action-log/action-log.writer';
import type { ActionLogEntry, Actor } from '../../action-log/finding-action';

/** What merge and unmerge read of a finding (locked FOR UPDATE in their transaction). */
export interface MergeRow {
  id: string;
  projectId: string;
  productId: string;
  title: string;
  mergedIntoId: string | null;
  /** Findings merged into this one. */
  memberCount: number;
  sources: Record<string, unknown>;
  scanner: string;
  scannerVersion: string | null;
  lastSeenAt: Date;
  ruleId: string;
  cve: string | null;
  score: number | null;
  description: string;
}

/** A merged member as the survivor's page lists it. */
export interface MergedMember {
  id: string;
  title: string;
  severity: string;
  status: string;
  mergedAt: Date;
}

const ROW_COLUMNS = `f.id, f.project_id, f.product_id, f.title, f.merged_into_id, f.sources,
  f.scanner, f.scanner_version, f.last_seen_at, f.rule_id, f.cve, f.score, f.description,
  (SELECT count(*)::int FROM findings m WHERE m.merged_into_id = f.id) AS member_count`;

function toRow(r: Record<string, unknown>): MergeRow {
  return {
    id: r['id'] as string,
    projectId: r['project_id'] as string,
    productId: r['product_id'] as string,
    title: r['title'] as string,
    mergedIntoId: (r['merged_into_id'] as string | null) ?? null,
    memberCount: Number(r['member_count']),
    sources: (r['sources'] as Record<string, unknown>) ?? {},
    scanner: r['scanner'] as string,
    scannerVersion: (r['scanner_version'] as string | null) ?? null,
    lastSeenAt: new Date(r['last_seen_at'] as string | Date),
    ruleId: r['rule_id'] as string,
    cve: (r['cve'] as string | null) ?? null,
    score: r['score'] === null ? null : Number(r['score']),
    description: r['description'] as string,
  };
}

/** One merge request as its history rows record it. */
export interface MergeRecord {
  mergeId: string;
  survivorId: string;
  productId: string;
  projectId: string;
  survivorSourcesBefore: Record<string, unknown>;
  /** Per member: the entries it added to the survivor's `sources`. */
  members: { memberId: string; memberSources: Record<string, unknown> }[];
}

/** Writes of one merge or unmerge; everything commits together with its action-log entries. */
export class FindingMergeTx {
  constructor(
    private readonly manager: EntityManager,
    private readonly actionLog: ActionLogWriter,
  ) {}

  /**
   * Holds the product FOR UPDATE until commit: waits for the ingestion batches running on it and
   * keeps new ones (FOR KEY SHARE, lockProductForWrite) out, so that no batch rewrites its staged
   * identities with a view of the merges that this transaction is changing.
   */
  async lockProduct(productId: string): Promise<boolean> {
    const rows = (await this.manager.query(`SELECT 1 FROM products WHERE id = $1 FOR UPDATE`, [
      productId,
    ])) as unknown[];
    return rows.length > 0;
  }

  /** The findings, locked FOR UPDATE in id order (no deadlock between two merges). */
  async lockFindings(ids: readonly string[]): Promise<MergeRow[]> {
    const rows = (await this.manager.query(
      `SELECT ${ROW_COLUMNS} FROM findings f WHERE f.id = ANY($1::uuid[]) ORDER BY f.id FOR UPDATE OF f`,
      [ids],
    )) as Record<string, unknown>[];
    return rows.map(toRow);
  }

  /** Ids of the findings merged into `survivorId`. */
  async memberIds(survivorId: string): Promise<string[]> {
    const rows = (await this.manager.query(
      `SELECT id FROM findings WHERE merged_into_id = $1 ORDER BY id`,
      [survivorId],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Members point to the survivor; the survivor's `sources` gains their entries. */
  async merge(
    survivorId: string,
    memberIds: readonly string[],
    addedSources: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    await this.manager.query(
      `UPDATE findings SET merged_into_id = $1, merged_at = $3, updated_at = $3
        WHERE id = ANY($2::uuid[]) AND merged_into_id IS NULL`,
      [survivorId, memberIds, now],
    );
    await this.manager.query(
      `UPDATE findings SET sources = sources || $2::jsonb, updated_at = $3 WHERE id = $1`,
      [survivorId, JSON.stringify(addedSources), now],
    );
  }

  /**
   * Members detached: pointer cleared, the survivor's `sources` loses the entries they added
   * (keys `<scanner>@<member id>`), their open history rows are closed.
   */
  async unmerge(
    survivorId: string,
    memberIds: readonly string[],
    actor: Actor,
    now: Date,
  ): Promise<void> {
    await this.manager.query(
      `UPDATE findings SET merged_into_id = NULL, merged_at = NULL, updated_at = $3
        WHERE id = ANY($2::uuid[]) AND merged_into_id = $1`,
      [survivorId, memberIds, now],
    );
    await this.manager.query(
      `UPDATE findings f SET sources = f.sources - ARRAY(
          SELECT k FROM jsonb_object_keys(f.sources) k, unnest($2::text[]) m
           WHERE right(k, 37) = '@' || m),
        updated_at = $3
        WHERE f.id = $1`,
      [survivorId, memberIds, now],
    );
    await this.manager.query(
      `UPDATE finding_merges SET unmerged_at = $3, unmerged_by_id = $4, unmerged_by_label = $5
        WHERE survivor_id = $1 AND member_id = ANY($2::uuid[]) AND unmerged_at IS NULL`,
      [survivorId, memberIds, now, actor.id, actor.label],
    );
  }

  async record(merge: MergeRecord, actor: Actor, now: Date): Promise<void> {
    await this.manager.query(
      `INSERT INTO finding_merges (merge_id, survivor_id, member_id, product_id, project_id,
          survivor_sources_before, member_sources, merged_by_type, merged_by_id, merged_by_label,
          merged_at)
        SELECT $1, $2, r.member_id, $3, $4, $5::jsonb, r.member_sources, $6, $7, $8, $9
          FROM unnest($10::uuid[], $11::jsonb[]) AS r(member_id, member_sources)`,
      [
        merge.mergeId,
        merge.survivorId,
        merge.productId,
        merge.projectId,
        JSON.stringify(merge.survivorSourcesBefore),
        actor.type,
        actor.id,
        actor.label,
        now,
        merge.members.map((r) => r.memberId),
        merge.members.map((r) => JSON.stringify(r.memberSources)),
      ],
    );
  }

  log(entries: ActionLogEntry[]): Promise<void> {
    return this.actionLog.write(this.manager, entries);
  }
}

/** Merge and unmerge of findings (docs/findings-service/merge.md) and what a finding page shows. */
@Injectable()
export class FindingMergesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly actionLog: ActionLogWriter,
  ) {}

  /** Product and project of each existing finding among `ids` (unlocked: to pick the product). */
  async targets(
    ids: readonly string[],
  ): Promise<{ id: string; projectId: string; productId: string }[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, project_id, product_id FROM findings WHERE id = ANY($1::uuid[])`,
      [ids],
    )) as { id: string; project_id: string; product_id: string }[];
    return rows.map((r) => ({ id: r.id, projectId: r.project_id, productId: r.product_id }));
  }

  transaction<T>(fn: (tx: FindingMergeTx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) =>
      fn(new FindingMergeTx(manager, this.actionLog)),
    );
  }

  /** The findings merged into `survivorId`, oldest merge first (at most `limit`). */
  async members(survivorId: string, limit = 500): Promise<MergedMember[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, title, severity, status, merged_at FROM findings
        WHERE merged_into_id = $1 ORDER BY merged_at, id LIMIT $2`,
      [survivorId, limit],
    )) as { id: string; title: string; severity: string; status: string; merged_at: Date }[];
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      severity: r.severity,
      status: r.status,
      mergedAt: new Date(r.merged_at),
    }));
  }
}
