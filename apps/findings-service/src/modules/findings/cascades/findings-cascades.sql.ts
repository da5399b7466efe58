import { deadlineSql } from '../../sla-clock/sla-clock.sql';
import { FINDING_STATUS_GROUPS } from '../finding-status';

/**
 * The statements other modules need run on the `findings` table when something of theirs
 * changes — a product deleted, a project's remediation days changed, a user deleted, enrichment
 * tags written — each one set-based statement for the caller's transaction. Run through
 * FindingsCascadesRepository (the modules below findings reach it through their ports).
 */

/** One statement and its parameters. */
export interface SqlStatement {
  sql: string;
  values: unknown[];
}

/** Every finding of the product, with their comment threads (no foreign key: deleted here). */
export function deleteFindingsOfProductSql(productId: string): SqlStatement {
  return {
    sql: `WITH gone AS (DELETE FROM findings WHERE product_id = $1 RETURNING id)
      DELETE FROM finding_comments c USING gone WHERE c.finding_id = gone.id`,
    values: [productId],
  };
}

/**
 * New days per severity for the project's findings that are not closed (`sla_days`, and the
 * deadline of a started clock: started + days + idle); findings whose days do not change are
 * not written.
 */
export function applySeverityDaysSql(
  projectId: string,
  days: readonly { severity: string; days: number | null }[],
): SqlStatement {
  return {
    sql: `UPDATE findings f SET sla_days = d.days,
           sla_due_at = ${deadlineSql('f.sla_started_at', 'd.days', 'f.sla_idle_ms')},
           updated_at = now()
          FROM unnest($2::text[], $3::int[]) AS d(severity, days)
         WHERE f.project_id = $1 AND f.severity = d.severity
           AND f.status <> ALL('{fixed,false_positive}'::text[])
           AND f.sla_days IS DISTINCT FROM d.days`,
    values: [projectId, days.map((d) => d.severity), days.map((d) => d.days)],
  };
}

/** Clears the user as assignee of every finding: rows `id, project_id`. */
export function unassignFindingsOfSql(userId: string): SqlStatement {
  return {
    sql: `UPDATE findings SET assignee_id = NULL, updated_at = now()
        WHERE assignee_id = $1 RETURNING id, project_id`,
    values: [userId],
  };
}

/** `enrichment_tags` of the findings as the union of every enricher's `key:value`. */
export function refreshEnrichmentTagsSql(findingIds: readonly string[]): SqlStatement {
  return {
    sql: `UPDATE findings f
            SET enrichment_tags = COALESCE(
                  (SELECT array_agg(DISTINCT t.key || ':' || t.value ORDER BY t.key || ':' || t.value)
                     FROM finding_enrichment_tags t WHERE t.finding_id = f.id),
                  '{}')
          WHERE f.id = ANY($1::uuid[])`,
    values: [findingIds],
  };
}

/**
 * Finding counts of each of `projectIds` (absent: none): every finding, the open and attention
 * groups, open by severity. An index-only scan of ix_findings_project_id_status_severity.
 */
export function countsByProjectSql(projectIds: readonly string[]): SqlStatement {
  return {
    // Merged findings are subtracted (their few rows through the merge partial index), so that
    // the count of all rows stays an index-only scan (docs/findings-service/merge.md).
    sql: `SELECT project_id, COALESCE(sum(n), 0)::int AS total,
          COALESCE(sum(n) FILTER (WHERE status = ANY($2::text[])), 0)::int AS open,
          COALESCE(sum(n) FILTER (WHERE status = ANY($3::text[])), 0)::int AS attention,
          COALESCE(sum(n) FILTER (WHERE status = ANY($2::text[]) AND severity = 'CRITICAL'), 0)::int AS critical,
          COALESCE(sum(n) FILTER (WHERE status = ANY($2::text[]) AND severity = 'HIGH'), 0)::int AS high,
          COALESCE(sum(n) FILTER (WHERE status = ANY($2::text[]) AND severity = 'MEDIUM'), 0)::int AS medium,
          COALESCE(sum(n) FILTER (WHERE status = ANY($2::text[]) AND severity = 'LOW'), 0)::int AS low,
          COALESCE(sum(n) FILTER (WHERE status = ANY($2::text[]) AND severity = 'INFO'), 0)::int AS info
         FROM (
           SELECT project_id, status, severity, count(*) AS n FROM findings
            WHERE project_id = ANY($1::uuid[]) GROUP BY project_id, status, severity
           UNION ALL
           SELECT project_id, status, severity, -count(*) FROM findings
            WHERE project_id = ANY($1::uuid[]) AND merged_into_id IS NOT NULL
            GROUP BY project_id, status, severity
         ) c GROUP BY project_id`,
    values: [projectIds, FINDING_STATUS_GROUPS.open, FINDING_STATUS_GROUPS.attention],
  };
}
