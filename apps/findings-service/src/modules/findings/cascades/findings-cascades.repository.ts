import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EnrichedFindings } from '../../enrichment/enriched-findings.port';
import type { ProductFindings } from '../../products/product-findings.port';
import type {
  ProjectFindingCounts,
  ProjectFindings,
  SeverityDays,
} from '../../projects/project-findings.port';
import type { AssignedFindings, UnassignedFinding } from '../../users/assigned-findings.port';
import {
  applySeverityDaysSql,
  countsByProjectSql,
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
    const { sql, values } = countsByProjectSql(projectIds);
    const rows = (await manager.query(sql, values)) as Record<string, number | string>[];
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
