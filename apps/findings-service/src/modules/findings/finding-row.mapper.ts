import type { ColumnReader } from '@platform/database';
import type { CodeFlow, RelatedLocation } from '@platform/report-parsing';
import type { FindingStatus } from './finding-status';
import { findingSources } from './finding-sources';
import type { FindingTicket, FindingView } from './finding-view';

/**
 * A raw row of FINDING_READ_COLUMNS or FINDING_DETAIL_COLUMNS (the finding's columns, project
 * and product names, the assignee's e-mail and display name, the ticket; node-pg types), read
 * by column name: an array row's reader (`columnReaders`) or a row object's (`objectReader`).
 * A list row has no flows: they map to empty lists.
 */
export type FindingRowRecord = ColumnReader;

const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const dateOrNull = (v: unknown): Date | null =>
  v instanceof Date ? v : v ? new Date(String(v)) : null;
const date = (v: unknown): Date => dateOrNull(v) ?? new Date(0);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const object = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};

/** The `ticket_*` columns of FINDING_READ_COLUMNS (all NULL without a ticket). */
function ticketOf(r: FindingRowRecord): FindingTicket | null {
  if (r('ticket_id') === null || r('ticket_id') === undefined) return null;
  return {
    id: str(r('ticket_id')),
    providerPluginId: str(r('ticket_provider_plugin_id')),
    taskId: str(r('ticket_task_id')),
    taskKey: str(r('ticket_key')),
    url: str(r('ticket_url')),
    status: str(r('ticket_status')),
    rawStatus: str(r('ticket_raw_status')),
    origin: str(r('ticket_origin')),
    findingCount: numOrNull(r('ticket_finding_count')),
    statusSyncedAt: dateOrNull(r('ticket_status_synced_at')),
    syncError: (r('ticket_sync_error') as string | null | undefined) ?? null,
    linkedAt: date(r('ticket_linked_at')),
  };
}

/** Maps a raw findings row (snake_case columns) to the API's view of a finding. */
export function toFindingView(r: FindingRowRecord): FindingView {
  const view: FindingView = {
    id: str(r('id')),
    projectId: str(r('project_id')),
    projectName: str(r('project_name')),
    productId: str(r('product_id')),
    productName: str(r('product_name')),
    identityKind: str(r('identity_kind')),
    ruleId: str(r('rule_id')),
    ruleName: strOrNull(r('rule_name')),
    ruleTitle: strOrNull(r('rule_title')),
    title: str(r('title')),
    description: str(r('description')),
    severity: str(r('severity')),
    status: str(r('status')) as FindingStatus,
    statusChangedAt: dateOrNull(r('status_changed_at')),
    baselineState: strOrNull(r('baseline_state')),
    kind: str(r('kind')),
    suppressed: r('suppressed') === true,
    host: strOrNull(r('host')),
    ip: strOrNull(r('ip')),
    port: numOrNull(r('port')),
    protocol: strOrNull(r('protocol')),
    service: strOrNull(r('service')),
    url: strOrNull(r('url')),
    filePath: strOrNull(r('file_path')),
    startLine: numOrNull(r('start_line')),
    endLine: numOrNull(r('end_line')),
    snippet: strOrNull(r('snippet')),
    logicalLocation: strOrNull(r('logical_location')),
    cve: strOrNull(r('cve')),
    cwe: strings(r('cwe')),
    component: strOrNull(r('component')),
    componentVersion: strOrNull(r('component_version')),
    score: numOrNull(r('score')),
    scanner: str(r('scanner')),
    scannerVersion: strOrNull(r('scanner_version')),
    revision: strOrNull(r('revision')),
    tags: strings(r('tags')),
    reportTags: strings(r('report_tags')),
    enrichmentTags: strings(r('enrichment_tags')),
    slaDays: numOrNull(r('sla_days')),
    slaStartedAt: dateOrNull(r('sla_started_at')),
    slaPausedAt: dateOrNull(r('sla_paused_at')),
    slaDueAt: dateOrNull(r('sla_due_at')),
    assigneeId: strOrNull(r('assignee_id')),
    assignee:
      r('assignee_email') === null || r('assignee_email') === undefined
        ? null
        : {
            id: str(r('assignee_id')),
            email: str(r('assignee_email')),
            displayName: str(r('assignee_display_name') ?? ''),
          },
    triageComment: strOrNull(r('triage_comment')),
    riskAcceptedUntil: dateOrNull(r('risk_accepted_until')),
    waitingReason: strOrNull(r('waiting_reason')),
    waitingUntil: dateOrNull(r('waiting_until')),
    fingerprints: object(r('fingerprints')),
    sources: object(r('sources')),
    relatedLocations: list<RelatedLocation>(r('related_locations')),
    codeFlows: list<CodeFlow>(r('code_flows')),
    ticket: ticketOf(r),
    firstSeenAt: date(r('first_seen_at')),
    lastSeenAt: date(r('last_seen_at')),
    createdAt: date(r('created_at')),
    updatedAt: date(r('updated_at')),
    mergedIntoId: strOrNull(r('merged_into_id')),
    mergedAt: dateOrNull(r('merged_at')),
    suppressionRule:
      r('suppression_rule_id') === null || r('suppression_rule_id') === undefined
        ? null
        : {
            id: str(r('suppression_rule_id')),
            name: strOrNull(r('suppression_rule_name')),
            suppressedAt: dateOrNull(r('suppressed_at')),
          },
  };
  view.sources = findingSources(view);
  return view;
}
