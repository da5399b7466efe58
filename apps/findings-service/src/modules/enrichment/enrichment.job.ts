import { isUUID } from 'class-validator';
import { defineJobContract } from '@platform/queue';

/** The enrichment queue: one job = one enricher × a batch of findings of one project. */
export const ENRICHMENT_QUEUE = 'finding-enrichment';

/** Findings one job may carry (ENRICHMENT_FINDINGS_PER_JOB is capped by it). */
export const MAX_FINDINGS_PER_ENRICHMENT_JOB = 10_000;

/** How long finished enrichment jobs stay in the queue (BullMQ removeOnComplete/Fail ages). */
export const ENRICHMENT_JOB_RETENTION_SECONDS = { completed: 24 * 3600, failed: 7 * 24 * 3600 };

export const ENRICHMENT_TRIGGERS = ['report', 'finding_created'] as const;
export type EnrichmentTrigger = (typeof ENRICHMENT_TRIGGERS)[number];

export interface EnrichFindingsJob {
  /** The enricher's installation id (its plugin id in the runner). */
  installedPluginId: string;
  projectId: string;
  findingIds: string[];
  trigger: EnrichmentTrigger;
  /** The report whose new findings these are (trigger `report`). */
  reportId?: string;
}

const isId = (v: unknown): v is string => typeof v === 'string' && isUUID(v, 'loose');

export const ENRICH_FINDINGS = defineJobContract<EnrichFindingsJob>('enrich-findings', (data) => {
  if (typeof data !== 'object' || data === null) throw new Error('expected an object');
  const { installedPluginId, projectId, findingIds, trigger, reportId } = data as Record<
    string,
    unknown
  >;
  if (!isId(installedPluginId)) throw new Error('installedPluginId must be a UUID');
  if (!isId(projectId)) throw new Error('projectId must be a UUID');
  if (
    !Array.isArray(findingIds) ||
    findingIds.length === 0 ||
    findingIds.length > MAX_FINDINGS_PER_ENRICHMENT_JOB
  ) {
    throw new Error(`findingIds must hold 1 to ${MAX_FINDINGS_PER_ENRICHMENT_JOB} ids`);
  }
  if (!findingIds.every(isId)) throw new Error('findingIds must be UUIDs');
  if (!ENRICHMENT_TRIGGERS.includes(trigger as EnrichmentTrigger)) {
    throw new Error(`trigger must be one of ${ENRICHMENT_TRIGGERS.join(', ')}`);
  }
  if (reportId !== undefined && !isId(reportId)) throw new Error('reportId must be a UUID');
  return {
    installedPluginId,
    projectId,
    findingIds: findingIds as string[],
    trigger: trigger as EnrichmentTrigger,
    ...(reportId !== undefined ? { reportId: reportId as string } : {}),
  };
});
