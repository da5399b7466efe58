import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../action-log/finding-action';
import {
  insertFindingActionsSql,
  type FindingActionColumn,
} from '../action-log/finding-actions.sql';
import { FINDING_STATUS_GROUPS } from '../findings/finding-status';
import { planBulkTransition } from '../findings/lifecycle/finding-lifecycle';
import { statusChangeCounts, statusChangeSql } from '../findings/lifecycle/status-change.sql';
import { SqlParams } from '../findings/list/finding-selection.sql';
import {
  type PollRules,
  upsertPolledFindingsSql,
  type UpsertedPolledFinding,
} from '../findings/polled-findings.sql';
import { insertMissingProductsSql } from '../products/missing-products.sql';

/** A node of a poll, checked. */
export interface PolledNode {
  key: string;
  hostname: string | null;
  ip: string | null;
  os: string | null;
  /** Product name (the installation's default applied). */
  product: string;
  attributes: Record<string, string>;
}

/** A finding of a poll, checked, with its identity computed. */
export interface PolledFinding {
  nodeKey: string;
  product: string;
  identityHash: string;
  identityKind: string;
  rule: string;
  severity: string;
  title: string;
  description: string;
  host: string;
  ip: string | null;
  port: number | null;
  protocol: string | null;
  cve: string | null;
  component: string | null;
  componentVersion: string | null;
}

export interface PollApplied {
  /** Ids of the findings this poll created (they are queued for enrichment). */
  createdIds: string[];
  findingsCreated: number;
  findingsClosed: number;
  nodesVanished: number;
  reconciliationSkipped: boolean;
}

export interface SyncRecord {
  installedPluginId: string;
  startedAt: Date;
  finishedAt: Date;
  outcome: 'ok' | 'failed';
  trigger: 'manual' | 'schedule';
  errorCode: string | null;
  errorMessage: string | null;
  nodes: number;
  findingsSeen: number;
  findingsCreated: number;
  findingsClosed: number;
  nodesVanished: number;
  reconciliationSkipped: boolean;
  lastSuccessAt: Date | null;
}

const ATTENTION = FINDING_STATUS_GROUPS.attention;

/** Columns of the poll's action-log entries. */
const ENTRY_COLUMNS: FindingActionColumn[] = [
  'finding_id',
  'project_id',
  'actor_type',
  'actor_id',
  'actor_label',
  'action',
  'from_value',
  'to_value',
  'at',
];

/**
 * Writes what a finding source polled, set-based, in one transaction per poll (serialised per
 * source by an advisory lock): products by name, findings upserted by identity (new ones get
 * their `created` action-log entry) — those three through the statements of the tables'
 * owners (products, findings, action-log) — the finding → node links, the nodes; then the
 * reconciliation of vanished nodes — their findings in an attention state are closed as
 * `fixed` by the status-change statement of the lifecycle (action log with the system actor,
 * deadline violations resolved) — unless the poll answered no node while nodes are recorded.
 */
@Injectable()
export class FindingSourcesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async applyPoll(
    pluginId: string,
    projectId: string,
    scanner: string,
    nodes: PolledNode[],
    findings: PolledFinding[],
    actor: Actor,
    now: Date,
    rules?: PollRules,
  ): Promise<PollApplied | 'project_missing'> {
    return this.dataSource.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('finding-source:' || $1))`, [pluginId]);
      const project = (await m.query(
        `SELECT sla_critical_days, sla_high_days, sla_medium_days, sla_low_days, sla_info_days
           FROM projects WHERE id = $1`,
        [projectId],
      )) as Record<string, number | null>[];
      if (project.length === 0) return 'project_missing';
      const products = await this.products(m, projectId, [
        ...new Set([...nodes.map((n) => n.product), ...findings.map((f) => f.product)]),
      ]);
      const created = await this.upsertFindings(
        m,
        projectId,
        scanner,
        products,
        findings,
        now,
        rules,
      );
      if (created.ids.length > 0) {
        await m.query(
          insertFindingActionsSql(
            ENTRY_COLUMNS,
            `SELECT f.id, f.project_id, $2, $3, $4, 'created', NULL,
                  jsonb_build_object('status', f.status, 'severity', f.severity, 'source', $5::text)
                    || CASE WHEN f.suppression_rule_id IS NULL THEN '{}'::jsonb ELSE
                      jsonb_build_object('suppression_rule_id', f.suppression_rule_id::text) END, $6
             FROM findings f WHERE f.id = ANY($1::uuid[])`,
          ),
          [created.ids, actor.type, actor.id, actor.label, scanner, now],
        );
      }
      if (created.renewedIds.length > 0) {
        await m.query(
          insertFindingActionsSql(
            ENTRY_COLUMNS,
            `SELECT f.id, f.project_id, $2, $3, $4, 'renewed', '{"status":"fixed"}'::jsonb,
                  jsonb_build_object('status', 'renewed', 'source', $5::text), $6
             FROM findings f WHERE f.id = ANY($1::uuid[])`,
          ),
          [created.renewedIds, actor.type, actor.id, actor.label, scanner, now],
        );
      }
      await m.query(
        `INSERT INTO finding_source_links (finding_id, installed_plugin_id, node_key)
         SELECT t.finding_id, $1, t.node_key
           FROM unnest($2::uuid[], $3::varchar[]) AS t(finding_id, node_key)
         ON CONFLICT (finding_id, installed_plugin_id) DO UPDATE SET node_key = EXCLUDED.node_key`,
        [pluginId, created.allIds, created.nodeKeys],
      );
      await m.query(
        `INSERT INTO finding_source_nodes (installed_plugin_id, node_key, project_id, product_id,
                hostname, ip, os, attributes, first_seen_at, last_seen_at)
         SELECT $1, n.key, $2, pr.id, n.hostname, n.ip, n.os, n.attributes, $8, $8
           FROM unnest($3::varchar[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $9::text[])
                AS n(key, hostname, ip, os, attributes, product)
           LEFT JOIN products pr ON pr.project_id = $2 AND pr.name = n.product
         ON CONFLICT (installed_plugin_id, node_key) DO UPDATE SET
           project_id = EXCLUDED.project_id, product_id = EXCLUDED.product_id,
           hostname = EXCLUDED.hostname, ip = EXCLUDED.ip, os = EXCLUDED.os,
           attributes = EXCLUDED.attributes, last_seen_at = EXCLUDED.last_seen_at`,
        [
          pluginId,
          projectId,
          nodes.map((n) => n.key),
          nodes.map((n) => n.hostname),
          nodes.map((n) => n.ip),
          nodes.map((n) => n.os),
          nodes.map((n) => JSON.stringify(n.attributes)),
          now,
          nodes.map((n) => n.product),
        ],
      );
      const known = (await m.query(
        `SELECT node_key FROM finding_source_nodes WHERE installed_plugin_id = $1`,
        [pluginId],
      )) as { node_key: string }[];
      const current = new Set(nodes.map((n) => n.key));
      const vanished = known.map((r) => r.node_key).filter((key) => !current.has(key));
      // Second guard (spec): an empty answer while nodes are recorded reconciles nothing.
      if (nodes.length === 0 && vanished.length > 0) {
        return {
          createdIds: created.ids,
          findingsCreated: created.ids.length,
          findingsClosed: 0,
          nodesVanished: 0,
          reconciliationSkipped: true,
        };
      }
      let closed = 0;
      if (vanished.length > 0) {
        closed = await this.closeFindingsOf(m, pluginId, vanished, actor, now);
        await m.query(
          `DELETE FROM finding_source_nodes WHERE installed_plugin_id = $1 AND node_key = ANY($2::varchar[])`,
          [pluginId, vanished],
        );
        await m.query(
          `DELETE FROM finding_source_links WHERE installed_plugin_id = $1 AND node_key = ANY($2::varchar[])`,
          [pluginId, vanished],
        );
      }
      return {
        createdIds: created.ids,
        findingsCreated: created.ids.length,
        findingsClosed: closed,
        nodesVanished: vanished.length,
        reconciliationSkipped: false,
      };
    });
  }

  /** The products of `names` in the project, created when missing: name → id. */
  private async products(
    m: EntityManager,
    projectId: string,
    names: string[],
  ): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    const missing = insertMissingProductsSql(projectId, names);
    await m.query(missing.sql, missing.values);
    const rows = (await m.query(
      `SELECT id, name FROM products WHERE project_id = $1 AND name = ANY($2::varchar[])`,
      [projectId, names],
    )) as { id: string; name: string }[];
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /**
   * Upserts the findings by (product, identity) with the findings module's statement: new ones
   * are inserted with the project's remediation days for their severity; seen ones get
   * `last_seen_at` and their source entry; a `fixed` one seen again (its host came back with
   * it) becomes `renewed`, as in ingestion. With `rules`, an inserted finding takes the first
   * enabled suppression rule that matches it (its `created` entry names the rule).
   */
  private async upsertFindings(
    m: EntityManager,
    projectId: string,
    scanner: string,
    products: Map<string, string>,
    findings: PolledFinding[],
    now: Date,
    rules?: PollRules,
  ): Promise<{ ids: string[]; renewedIds: string[]; allIds: string[]; nodeKeys: string[] }> {
    if (findings.length === 0) return { ids: [], renewedIds: [], allIds: [], nodeKeys: [] };
    const { sql, values } = upsertPolledFindingsSql(
      projectId,
      scanner,
      findings.map((f) => ({ ...f, productId: products.get(f.product) })),
      now,
      rules,
    );
    const rows = (await m.query(sql, values)) as UpsertedPolledFinding[];
    return {
      ids: rows.filter((r) => r.inserted).map((r) => r.id),
      renewedIds: rows.filter((r) => r.old_status === 'fixed').map((r) => r.id),
      allIds: rows.map((r) => r.id),
      nodeKeys: rows.map((r) => r.node_key),
    };
  }

  /** Closes (fixed) the attention-state findings seen on `nodeKeys`: the lifecycle's statement. */
  private async closeFindingsOf(
    m: EntityManager,
    pluginId: string,
    nodeKeys: string[],
    actor: Actor,
    now: Date,
  ): Promise<number> {
    const params = new SqlParams();
    const { sql, values } = statusChangeSql({
      where: [
        `f.id IN (SELECT l.finding_id FROM finding_source_links l
                   WHERE l.installed_plugin_id = ${params.add(pluginId)}::uuid
                     AND l.node_key = ANY(${params.add(nodeKeys)}::varchar[]))`,
        `f.status = ANY(${params.add([...ATTENTION])}::text[])`,
      ],
      params,
      plan: planBulkTransition('fixed', {}, now),
      actor,
      now,
    });
    return statusChangeCounts(await m.query(sql, values)).changed;
  }

  async recordSync(record: SyncRecord): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO finding_source_syncs (installed_plugin_id, started_at, finished_at, outcome,
              trigger, error_code, error_message, nodes, findings_seen, findings_created,
              findings_closed, nodes_vanished, reconciliation_skipped, last_success_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (installed_plugin_id) DO UPDATE SET started_at = EXCLUDED.started_at,
         finished_at = EXCLUDED.finished_at, outcome = EXCLUDED.outcome, trigger = EXCLUDED.trigger,
         error_code = EXCLUDED.error_code, error_message = EXCLUDED.error_message,
         nodes = EXCLUDED.nodes, findings_seen = EXCLUDED.findings_seen,
         findings_created = EXCLUDED.findings_created, findings_closed = EXCLUDED.findings_closed,
         nodes_vanished = EXCLUDED.nodes_vanished,
         reconciliation_skipped = EXCLUDED.reconciliation_skipped,
         last_success_at = COALESCE(EXCLUDED.last_success_at, finding_source_syncs.last_success_at)`,
      [
        record.installedPluginId,
        record.startedAt,
        record.finishedAt,
        record.outcome,
        record.trigger,
        record.errorCode,
        record.errorMessage,
        record.nodes,
        record.findingsSeen,
        record.findingsCreated,
        record.findingsClosed,
        record.nodesVanished,
        record.reconciliationSkipped,
        record.lastSuccessAt,
      ],
    );
  }

  async lastSync(pluginId: string): Promise<SyncRecord | null> {
    const rows = (await this.dataSource.query(
      `SELECT * FROM finding_source_syncs WHERE installed_plugin_id = $1`,
      [pluginId],
    )) as Record<string, unknown>[];
    const r = rows[0];
    if (!r) return null;
    return {
      installedPluginId: String(r['installed_plugin_id']),
      startedAt: r['started_at'] as Date,
      finishedAt: r['finished_at'] as Date,
      outcome: r['outcome'] as 'ok' | 'failed',
      trigger: r['trigger'] as 'manual' | 'schedule',
      errorCode: (r['error_code'] as string | null) ?? null,
      errorMessage: (r['error_message'] as string | null) ?? null,
      nodes: Number(r['nodes']),
      findingsSeen: Number(r['findings_seen']),
      findingsCreated: Number(r['findings_created']),
      findingsClosed: Number(r['findings_closed']),
      nodesVanished: Number(r['nodes_vanished']),
      reconciliationSkipped: Boolean(r['reconciliation_skipped']),
      lastSuccessAt: (r['last_success_at'] as Date | null) ?? null,
    };
  }

  /** When each source's last poll started (sources never polled are absent). */
  async lastStarts(pluginIds: string[]): Promise<Map<string, Date>> {
    if (pluginIds.length === 0) return new Map();
    const rows = (await this.dataSource.query(
      `SELECT installed_plugin_id, started_at FROM finding_source_syncs
        WHERE installed_plugin_id = ANY($1::uuid[])`,
      [pluginIds],
    )) as { installed_plugin_id: string; started_at: Date }[];
    return new Map(rows.map((r) => [r.installed_plugin_id, r.started_at]));
  }
}
