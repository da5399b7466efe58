import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EnrichedFindings } from '../../enrichment/enriched-findings.port';
import type { ProductFindings } from '../../products/product-findings.port';
import type {
  ProjectFindingCounts,
  ProjectFindings,
  SeverityDays,
} from '../../projects/project-findings.port';
import { FINDING_STATUS_GROUPS } from '../finding-status';
import type { AssignedFindings, UnassignedFinding } from '../../users/assigned-findings.port';
import {
  applySeverityDaysSql,
  deleteFindingsOfProductSql,
  refreshEnrichmentTagsSql,
  unassignFindingsOfSql,
} from './findings-cascades.sql';

/**
 * The findings side of changes made by the modules below findings (products, projects, users,
 * enrichment): each runs the owner's statement (findings-cascades.sql.ts) in the transaction
 * the caller passes, so the change and its effect on the findings commit together.
 */
@Injectable()
export class FindingsCascadesRepository
  implements ProductFindings, ProjectFindings, AssignedFindings, EnrichedFindings
{
  async deleteFindingsOfProduct(manager: EntityManager, productId: string): Promise<void> {
    const { sql, values } = deleteFindingsOfProductSql(productId);
    await manager.query(sql, values);
  }

  async applySeverityDays(
    manager: EntityManager,
    projectId: string,
    days: readonly SeverityDays[],
  ): Promise<void> {
    const { sql, values } = applySeverityDaysSql(projectId, days);
    await manager.query(sql, values);
  }

  async countsByProject(
    manager: EntityManager,
    projectIds: readonly string[],
  ): Promise<Map<string, ProjectFindingCounts>> {
    const rows = (await manager.query(
      `SELECT project_id, count(*)::int AS total,
          count(*) FILTER (WHERE status = ANY($2::text[]))::int AS open,
          count(*) FILTER (WHERE status = ANY($3::text[]))::int AS attention,
          count(*) FILTER (WHERE status = ANY($2::text[]) AND severity = 'CRITICAL')::int AS critical,
          count(*) FILTER (WHERE status = ANY($2::text[]) AND severity = 'HIGH')::int AS high,
          count(*) FILTER (WHERE status = ANY($2::text[]) AND severity = 'MEDIUM')::int AS medium,
          count(*) FILTER (WHERE status = ANY($2::text[]) AND severity = 'LOW')::int AS low,
          count(*) FILTER (WHERE status = ANY($2::text[]) AND severity = 'INFO')::int AS info
         FROM findings WHERE project_id = ANY($1::uuid[]) GROUP BY project_id`,
      [projectIds, FINDING_STATUS_GROUPS.open, FINDING_STATUS_GROUPS.attention],
    )) as Record<string, number | string>[];
    return new Map(
      rows.map((r) => [
        String(r['project_id']),
        {
          total: Number(r['total']),
          open: Number(r['open']),
          attention: Number(r['attention']),
          openBySeverity: {
            CRITICAL: Number(r['critical']),
            HIGH: Number(r['high']),
            MEDIUM: Number(r['medium']),
            LOW: Number(r['low']),
            INFO: Number(r['info']),
          },
        },
      ]),
    );
  }

  async unassignFindingsOf(manager: EntityManager, userId: string): Promise<UnassignedFinding[]> {
    const { sql, values } = unassignFindingsOfSql(userId);
    const [rows] = (await manager.query(sql, values)) as [
      { id: string; project_id: string }[],
      number,
    ];
    return rows.map((r) => ({ id: r.id, projectId: r.project_id }));
  }

  async refreshEnrichmentTags(
    manager: EntityManager,
    findingIds: readonly string[],
  ): Promise<void> {
    const { sql, values } = refreshEnrichmentTagsSql(findingIds);
    await manager.query(sql, values);
  }
}
