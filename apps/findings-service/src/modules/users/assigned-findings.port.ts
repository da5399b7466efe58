import type { EntityManager } from 'typeorm';

/** A finding a user was assigned to. */
export interface UnassignedFinding {
  id: string;
  projectId: string;
}

/**
 * What deleting a user does to the findings assigned to them. The findings module owns the
 * `findings` table and implements this (findings/cascades); the composition roots bind it.
 * Users sits below findings and never imports it.
 */
export abstract class AssignedFindings {
  /** Clears the user as assignee of every finding, in the caller's transaction; returns them. */
  abstract unassignFindingsOf(manager: EntityManager, userId: string): Promise<UnassignedFinding[]>;
}
