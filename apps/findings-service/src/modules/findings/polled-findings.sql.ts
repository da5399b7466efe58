import { loweredStage } from './suppression/finding-suppression.sql';

/** Parameters of upsertPolledFindingsSql; the rules' placeholders follow them. */
export const POLL_UPSERT_PARAMS = 18;

/**
 * The project's enabled suppression rules as one expression over a polled row `s` and its
 * lower-cased text `l` (modules/suppression, stagedRuleCase): the first matching rule's id or
 * NULL; its placeholders start after POLL_UPSERT_PARAMS.
 */
export interface PollRules {
  ruleCase: string;
  params: unknown[];
}

/** A finding a finding source polled, checked, its product resolved. */
export interface PolledFindingRow {
  productId: string | undefined;
  nodeKey: string;
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

/** A row of upsertPolledFindingsSql. */
export interface UpsertedPolledFinding {
  id: string;
  inserted: boolean;
  node_key: string;
  old_status: string | null;
}

/**
 * The upsert of a finding source's poll (modules/finding-sources), one statement run in the
 * poll's transaction: findings by (product, identity) — new ones inserted with the project's
 * remediation days for their severity and `scanner`'s source entry; seen ones get
 * `last_seen_at` and the entry; a `fixed` one seen again (its host came back with it) becomes
 * `renewed`, as in ingestion. A polled identity that belongs to a merged finding counts as its
 * survivor's (docs/findings-service/merge.md#ingestion): the merged row stays as it is, and
 * two nodes that land on one finding are written once and both answered with it. The outer
 * query reads the old status with the statement's snapshot: rows `UpsertedPolledFinding`.
 *
 * With `rules` (the project's enabled suppression rules), an inserted finding takes the first
 * matching rule with `suppressed_at`, as in ingestion (docs/findings-service/suppression.md): the
 * polled row carries the columns the rules read as the finding will store them (`scanner` the
 * source, no file path, no CWE, no report tags); a re-sighted finding is never changed by it.
 */
export function upsertPolledFindingsSql(
  projectId: string,
  scanner: string,
  findings: readonly PolledFindingRow[],
  now: Date,
  rules?: PollRules,
): { sql: string; values: unknown[] } {
  const col = <T>(pick: (f: PolledFindingRow) => T) => findings.map(pick);
  const suppressColumns = rules ? ', suppression_rule_id, suppressed_at' : '';
  const suppressValues = rules
    ? `, sup.by_rule, CASE WHEN sup.by_rule IS NOT NULL THEN $18::timestamptz END`
    : '';
  const suppressFrom = rules
    ? ` CROSS JOIN LATERAL ${loweredStage(rules.ruleCase)}
           CROSS JOIN LATERAL (SELECT ${rules.ruleCase} AS by_rule OFFSET 0) sup`
    : '';
  return {
    sql: `WITH polled AS (
         SELECT t.product_id, COALESCE(sv.identity_hash, t.identity_hash) AS identity_hash,
                t.identity_kind, t.rule_id, t.severity, t.title, t.description, t.host, t.ip,
                t.port, t.protocol, t.cve, t.component, t.component_version, t.node_key, t.ord,
                $17::text AS scanner, NULL::text AS file_path, '{}'::text[] AS cwe,
                '{}'::text[] AS report_tags
           FROM unnest($2::uuid[], $3::char(64)[], $4::varchar[], $5::text[], $6::varchar[],
                       $7::text[], $8::text[], $9::text[], $10::text[], $11::int[],
                       $12::varchar[], $13::varchar[], $14::text[], $15::text[], $16::varchar[])
                WITH ORDINALITY
             AS t(product_id, identity_hash, identity_kind, rule_id, severity, title, description,
                  host, ip, port, protocol, cve, component, component_version, node_key, ord)
           LEFT JOIN findings m ON m.product_id = t.product_id
                AND m.identity_hash = t.identity_hash AND m.merged_into_id IS NOT NULL
           LEFT JOIN findings sv ON sv.id = m.merged_into_id
       ), input AS (
         SELECT DISTINCT ON (product_id, identity_hash) * FROM polled
          ORDER BY product_id, identity_hash, ord
       ), upserted AS (
         INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
                description, severity, host, ip, port, protocol, cve, component, component_version,
                scanner, sla_days, sources, properties, first_seen_at, last_seen_at${suppressColumns})
         SELECT s.product_id, $1, s.identity_hash, s.identity_kind, s.rule_id, s.title, s.description,
                s.severity, s.host, s.ip, s.port, s.protocol, s.cve, s.component, s.component_version,
                $17::text, CASE s.severity WHEN 'CRITICAL' THEN p.sla_critical_days
                  WHEN 'HIGH' THEN p.sla_high_days WHEN 'MEDIUM' THEN p.sla_medium_days
                  WHEN 'LOW' THEN p.sla_low_days ELSE p.sla_info_days END,
                jsonb_build_object($17::text, jsonb_build_object('scanner', $17::text,
                  'scanned_at', $18::timestamptz, 'rule_id', s.rule_id, 'cve', s.cve,
                  'description', s.description)),
                jsonb_build_object('finding_source', $17::text, 'node_key', s.node_key),
                $18::timestamptz, $18::timestamptz${suppressValues}
           FROM input s${suppressFrom} JOIN projects p ON p.id = $1
         ON CONFLICT (product_id, identity_hash) DO UPDATE SET
           last_seen_at = EXCLUDED.last_seen_at,
           sources = findings.sources || EXCLUDED.sources,
           status = CASE WHEN findings.status = 'fixed' THEN 'renewed' ELSE findings.status END,
           status_changed_at = CASE WHEN findings.status = 'fixed' THEN $18::timestamptz
                                    ELSE findings.status_changed_at END,
           updated_at = CASE WHEN findings.status = 'fixed' THEN $18::timestamptz
                             ELSE findings.updated_at END
         RETURNING id, product_id, identity_hash, (xmax = 0) AS inserted
       )
       SELECT u.id, u.inserted, i.node_key, old.status AS old_status FROM upserted u
         JOIN polled i ON i.product_id = u.product_id AND i.identity_hash = u.identity_hash
         LEFT JOIN findings old ON old.id = CASE WHEN u.inserted THEN NULL ELSE u.id END`,
    values: [
      projectId,
      col((f) => f.productId),
      col((f) => f.identityHash),
      col((f) => f.identityKind),
      col((f) => f.rule),
      col((f) => f.severity),
      col((f) => f.title),
      col((f) => f.description),
      col((f) => f.host),
      col((f) => f.ip),
      col((f) => f.port),
      col((f) => f.protocol),
      col((f) => f.cve),
      col((f) => f.component),
      col((f) => f.componentVersion),
      col((f) => f.nodeKey),
      scanner,
      now,
      ...(rules?.params ?? []),
    ],
  };
}
