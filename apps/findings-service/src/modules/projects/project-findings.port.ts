import type { EntityManager } from 'typeorm';

/** New remediation days of one severity (null: no deadline). */
export interface SeverityDays {
  severity: string;
  days: number | null;
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
}
