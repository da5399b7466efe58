import type { EntityManager } from 'typeorm';

/** New remediation days of one severity (null: no deadline). */
export interface SeverityDays {
  severity: string;
  days: number | null;
}

/** A project's finding counts (GET /projects): every finding, the open and attention groups. */
export interface ProjectFindingCounts {
  total: number;
  open: number;
  attention: number;
  openBySeverity: Record<'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' | 'INFO', number>;
}

/**
 * What changing a project's remediation days does to its findings. The findings module owns
 * the `findings` table and implements this (findings/cascades); the composition roots bind it.
 * Projects sits below findings and never imports it.
 */
export abstract class ProjectFindings {
  /**
   * In the caller's transaction, one statement: the project's findings of those severities that
   * are not closed get the new days and the deadline of a started clock (started + days + idle,
   * sla-clock.sql.ts).
   */
  abstract applySeverityDays(
    manager: EntityManager,
    projectId: string,
    days: readonly SeverityDays[],
  ): Promise<void>;

  /**
   * The finding counts of each project (one grouped statement for the whole list; a project
   * without findings is absent from the map). `open` and `attention` are the status groups of
   * the lifecycle, which the findings module owns.
   */
  abstract countsByProject(
    manager: EntityManager,
    projectIds: readonly string[],
  ): Promise<Map<string, ProjectFindingCounts>>;
}
