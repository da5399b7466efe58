import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../action-log/finding-action';
import type { EntryMode } from './perimeter/perimeter';
import type { EntryKind } from './perimeter/scope-entry-value';
import type { EntryOrigin, ProposalStatus } from './scope.entities';
import type {
  KeysetCursor,
  ScopeAssetView,
  ScopeEntryView,
  ScopeProposalView,
} from './scope-views';

type Row = Record<string, unknown>;

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function actor(r: Row, prefix: string): Actor {
  return {
    type: String(r[`${prefix}_type`]) as Actor['type'],
    id: strOrNull(r[`${prefix}_id`]),
    label: strOrNull(r[`${prefix}_label`]),
  };
}

function toEntry(r: Row): ScopeEntryView {
  return {
    id: String(r['id']),
    projectId: String(r['project_id']),
    mode: r['mode'] as EntryMode,
    kind: r['kind'] as EntryKind,
    value: String(r['value']),
    comment: strOrNull(r['comment']),
    origin: r['origin'] as EntryOrigin,
    originRef: strOrNull(r['origin_ref']),
    createdBy: actor(r, 'created_by'),
    createdAt: date(r['created_at']),
    cursorAt: String(r['cursor_at']),
  };
}

function toProposal(r: Row): ScopeProposalView {
  return {
    id: String(r['id']),
    projectId: String(r['project_id']),
    value: String(r['value']),
    kind: r['kind'] as EntryKind,
    status: r['status'] as ProposalStatus,
    comment: strOrNull(r['comment']),
    proposedBy: actor(r, 'proposed_by'),
    timesProposed: Number(r['times_proposed']),
    firstProposedAt: date(r['first_proposed_at']),
    lastProposedAt: date(r['last_proposed_at']),
    decidedAt: dateOrNull(r['decided_at']),
    decidedBy: r['decided_by_type'] ? actor(r, 'decided_by') : null,
    decisionComment: strOrNull(r['decision_comment']),
    entryId: strOrNull(r['entry_id']),
    cursorAt: String(r['cursor_at']),
  };
}

function toAsset(r: Row): ScopeAssetView {
  return {
    id: String(r['id']),
    projectId: String(r['project_id']),
    domain: String(r['domain']),
    ip: String(r['ip']),
    firstSeenAt: date(r['first_seen_at']),
    lastSeenAt: date(r['last_seen_at']),
    resolving: r['resolving'] === true,
    stoppedResolvingAt: dateOrNull(r['stopped_resolving_at']),
    resumedResolvingAt: dateOrNull(r['resumed_resolving_at']),
    reportedByLabel: strOrNull(r['reported_by_label']),
    cursorAt: String(r['cursor_at']),
  };
}

/** An entry to insert (the value canonical, checked against the overlap rule). */
export interface NewEntry {
  mode: EntryMode;
  kind: EntryKind;
  value: string;
  comment: string | null;
  originRef: string | null;
}

/** The entries of a project as stored (for the perimeter and the overlap rule). */
export interface StoredEntryValue {
  id: string;
  mode: EntryMode;
  value: string;
}

/** Writes of a perimeter under its lock (one per project), in one transaction. */
export class PerimeterTx {
  constructor(
    private readonly manager: EntityManager,
    readonly projectId: string,
  ) {}

  async entryValues(): Promise<StoredEntryValue[]> {
    return (await this.manager.query(
      `SELECT id, mode, value FROM scope_entries WHERE project_id = $1`,
      [this.projectId],
    )) as StoredEntryValue[];
  }

  async insertEntries(
    entries: NewEntry[],
    origin: EntryOrigin,
    by: Actor,
    at: Date,
  ): Promise<ScopeEntryView[]> {
    if (entries.length === 0) return [];
    const rows = (await this.manager.query(
      `INSERT INTO scope_entries (project_id, mode, kind, value, comment, origin, origin_ref,
              created_by_type, created_by_id, created_by_label, created_at)
       SELECT $1, e.mode, e.kind, e.value, e.comment, $6, e.origin_ref, $7, $8, $9, $10
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $11::text[])
              WITH ORDINALITY AS e(mode, kind, value, comment, origin_ref, n)
        ORDER BY e.n
       RETURNING *, seq::text AS cursor_at`,
      [
        this.projectId,
        entries.map((e) => e.mode),
        entries.map((e) => e.kind),
        entries.map((e) => e.value),
        entries.map((e) => e.comment),
        origin,
        by.type,
        by.id,
        by.label,
        at,
        entries.map((e) => e.originRef),
      ],
    )) as Row[];
    return rows.map(toEntry);
  }

  /** The proposal, locked; undefined when the project has no such proposal. */
  async lockedProposal(id: string): Promise<ScopeProposalView | undefined> {
    const rows = (await this.manager.query(
      `SELECT *, first_proposed_at::text AS cursor_at FROM scope_proposals
        WHERE id = $1 AND project_id = $2 FOR UPDATE`,
      [id, this.projectId],
    )) as Row[];
    return rows[0] ? toProposal(rows[0]) : undefined;
  }

  async decideProposal(
    id: string,
    decision: {
      status: 'confirmed' | 'rejected';
      by: Actor;
      at: Date;
      comment: string | null;
      entryId: string | null;
    },
  ): Promise<ScopeProposalView> {
    const rows = (await this.manager.query(
      `UPDATE scope_proposals SET status = $2, decided_at = $3, decided_by_type = $4,
              decided_by_id = $5, decided_by_label = $6, decision_comment = $7, entry_id = $8
        WHERE id = $1 RETURNING *, first_proposed_at::text AS cursor_at`,
      [
        id,
        decision.status,
        decision.at,
        decision.by.type,
        decision.by.id,
        decision.by.label,
        decision.comment,
        decision.entryId,
      ],
    )) as [Row[], number];
    return toProposal(rows[0][0]);
  }
}

/** The scan perimeter's tables: scope_entries, scope_proposals, scope_assets (their one writer). */
@Injectable()
export class ScopeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async projectExists(projectId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT 1 FROM projects WHERE id = $1`, [
      projectId,
    ])) as unknown[];
    return rows.length > 0;
  }

  /**
   * Runs `work` in a transaction holding the project's perimeter lock, so two writers never
   * check the overlap rule against the same old entries.
   */
  withPerimeter<T>(projectId: string, work: (tx: PerimeterTx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `scope-perimeter:${projectId}`,
      ]);
      return work(new PerimeterTx(manager, projectId));
    });
  }

  async entryValues(projectId: string): Promise<StoredEntryValue[]> {
    return (await this.dataSource.query(
      `SELECT id, mode, value FROM scope_entries WHERE project_id = $1`,
      [projectId],
    )) as StoredEntryValue[];
  }

  /** Every entry of the project, oldest first (the export). */
  async allEntries(projectId: string): Promise<ScopeEntryView[]> {
    const rows = (await this.dataSource.query(
      `SELECT *, seq::text AS cursor_at FROM scope_entries WHERE project_id = $1 ORDER BY seq`,
      [projectId],
    )) as Row[];
    return rows.map(toEntry);
  }

  /** One keyset page in the order of addition (`seq`). */
  async listEntries(
    projectId: string,
    filters: { mode?: EntryMode; kind?: EntryKind },
    cursor: KeysetCursor | undefined,
    fetch: number,
  ): Promise<ScopeEntryView[]> {
    const rows = (await this.dataSource.query(
      `SELECT *, seq::text AS cursor_at FROM scope_entries
        WHERE project_id = $1 AND ($2::text IS NULL OR mode = $2) AND ($3::text IS NULL OR kind = $3)
          AND ($4::bigint IS NULL OR seq > $4::bigint)
        ORDER BY seq LIMIT $5`,
      [projectId, filters.mode ?? null, filters.kind ?? null, cursor?.at ?? null, fetch],
    )) as Row[];
    return rows.map(toEntry);
  }

  async deleteEntry(projectId: string, id: string): Promise<ScopeEntryView | undefined> {
    const rows = (await this.dataSource.query(
      `DELETE FROM scope_entries WHERE id = $1 AND project_id = $2
       RETURNING *, seq::text AS cursor_at`,
      [id, projectId],
    )) as [Row[], number];
    const deleted = rows[0];
    return deleted[0] ? toEntry(deleted[0]) : undefined;
  }

  async countPendingProposals(projectId: string): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM scope_proposals WHERE project_id = $1 AND status = 'pending'`,
      [projectId],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }

  /**
   * Records a proposal: a new value is inserted `pending`; a known one is counted again
   * (`times_proposed`, `last_proposed_at`) and keeps its status — a rejected one stays
   * rejected — except a confirmed one whose entry was deleted since, which is pending again.
   */
  async propose(
    projectId: string,
    proposal: { value: string; kind: EntryKind; comment: string | null },
    by: Actor,
    at: Date,
  ): Promise<{ proposal: ScopeProposalView; created: boolean }> {
    const rows = (await this.dataSource.query(
      `INSERT INTO scope_proposals AS p (project_id, value, kind, status, comment, proposed_by_type,
              proposed_by_id, proposed_by_label, times_proposed, first_proposed_at, last_proposed_at)
       VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, 1, $8, $8)
       ON CONFLICT (project_id, value) DO UPDATE SET
              times_proposed = p.times_proposed + 1,
              last_proposed_at = GREATEST(p.last_proposed_at, EXCLUDED.last_proposed_at),
              comment = COALESCE(EXCLUDED.comment, p.comment),
              status = CASE WHEN p.status = 'confirmed' AND p.entry_id IS NULL THEN 'pending'
                            ELSE p.status END,
              decided_at = CASE WHEN p.status = 'confirmed' AND p.entry_id IS NULL THEN NULL
                                ELSE p.decided_at END
       RETURNING *, first_proposed_at::text AS cursor_at, (xmax = 0) AS created`,
      [projectId, proposal.value, proposal.kind, proposal.comment, by.type, by.id, by.label, at],
    )) as Row[];
    return { proposal: toProposal(rows[0]), created: rows[0]['created'] === true };
  }

  async listProposals(
    projectId: string,
    status: ProposalStatus | undefined,
    cursor: KeysetCursor | undefined,
    fetch: number,
  ): Promise<ScopeProposalView[]> {
    const rows = (await this.dataSource.query(
      `SELECT *, first_proposed_at::text AS cursor_at FROM scope_proposals
        WHERE project_id = $1 AND ($2::text IS NULL OR status = $2)
          AND ($3::timestamptz IS NULL OR (first_proposed_at, id) > ($3::timestamptz, $4::uuid))
        ORDER BY first_proposed_at, id LIMIT $5`,
      [projectId, status ?? null, cursor?.at ?? null, cursor?.id ?? null, fetch],
    )) as Row[];
    return rows.map(toProposal);
  }

  /**
   * Upserts domain <-> IP pairs (set-based): new pairs get first and last seen, known ones
   * move `last_seen_at` forward (never back). Counts what was new.
   */
  async upsertAssets(
    projectId: string,
    pairs: { domain: string; ip: string; seenAt: Date }[],
    reportedBy: string | null,
  ): Promise<{ added: number; updated: number }> {
    const rows = (await this.dataSource.query(
      `WITH input AS (
         SELECT domain, ip, max(seen_at) AS seen_at
           FROM unnest($2::text[], $3::text[], $4::timestamptz[]) AS i(domain, ip, seen_at)
          GROUP BY domain, ip
       )
       INSERT INTO scope_assets AS a (project_id, domain, ip, first_seen_at, last_seen_at, reported_by_label)
       SELECT $1, domain, ip, seen_at, seen_at, $5 FROM input
       ON CONFLICT (project_id, domain, ip) DO UPDATE SET
              last_seen_at = GREATEST(a.last_seen_at, EXCLUDED.last_seen_at),
              first_seen_at = LEAST(a.first_seen_at, EXCLUDED.first_seen_at),
              reported_by_label = EXCLUDED.reported_by_label
       RETURNING (xmax = 0) AS added`,
      [
        projectId,
        pairs.map((p) => p.domain),
        pairs.map((p) => p.ip),
        pairs.map((p) => p.seenAt),
        reportedBy,
      ],
    )) as { added: boolean }[];
    const added = rows.filter((r) => r.added).length;
    return { added, updated: rows.length - added };
  }

  /**
   * Records domains that stopped or resumed resolving on their asset rows: a change of state
   * sets `resolving` and the matching timestamp; a report of the state already recorded
   * changes nothing. Answers, per domain, whether it changed; domains with no asset are absent.
   */
  async recordResolution(
    projectId: string,
    reports: { domain: string; resolving: boolean; observedAt: Date }[],
    reportedBy: string | null,
  ): Promise<{ known: Set<string>; changed: Set<string> }> {
    return this.dataSource.transaction(async (manager) => {
      const known = (await manager.query(
        `SELECT DISTINCT domain FROM scope_assets WHERE project_id = $1 AND domain = ANY($2::text[])`,
        [projectId, reports.map((r) => r.domain)],
      )) as { domain: string }[];
      const changed = (await manager.query(
        `WITH input AS (
           SELECT DISTINCT ON (domain) domain, resolving, observed_at
             FROM unnest($2::text[], $3::boolean[], $4::timestamptz[])
                  AS i(domain, resolving, observed_at)
            ORDER BY domain, observed_at DESC
         )
         UPDATE scope_assets a SET resolving = i.resolving,
                stopped_resolving_at = CASE WHEN i.resolving THEN a.stopped_resolving_at ELSE i.observed_at END,
                resumed_resolving_at = CASE WHEN i.resolving THEN i.observed_at ELSE a.resumed_resolving_at END,
                reported_by_label = $5
           FROM input i
          WHERE a.project_id = $1 AND a.domain = i.domain AND a.resolving <> i.resolving
         RETURNING a.domain`,
        [
          projectId,
          reports.map((r) => r.domain),
          reports.map((r) => r.resolving),
          reports.map((r) => r.observedAt),
          reportedBy,
        ],
      )) as [{ domain: string }[], number];
      return {
        known: new Set(known.map((r) => r.domain)),
        changed: new Set(changed[0].map((r) => r.domain)),
      };
    });
  }

  async listAssets(
    projectId: string,
    domain: string | undefined,
    cursor: KeysetCursor | undefined,
    fetch: number,
  ): Promise<ScopeAssetView[]> {
    const rows = (await this.dataSource.query(
      `SELECT *, last_seen_at::text AS cursor_at FROM scope_assets
        WHERE project_id = $1 AND ($2::text IS NULL OR domain = $2)
          AND ($3::timestamptz IS NULL OR (last_seen_at, id) < ($3::timestamptz, $4::uuid))
        ORDER BY last_seen_at DESC, id DESC LIMIT $5`,
      [projectId, domain ?? null, cursor?.at ?? null, cursor?.id ?? null, fetch],
    )) as Row[];
    return rows.map(toAsset);
  }
}
