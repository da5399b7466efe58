import { locationLabelOf, ruleTitleOf, type FindingView } from '../finding-view';

/** The header of the export: stable English names, so scripts can read the file. */
export const CSV_COLUMNS = [
  'id',
  'project',
  'product',
  'severity',
  'status',
  'rule_id',
  'rule_title',
  'title',
  'location',
  'file_path',
  'start_line',
  'end_line',
  'host',
  'ip',
  'port',
  'protocol',
  'url',
  'cve',
  'cwe',
  'component',
  'component_version',
  'scanner',
  'tags',
  'report_tags',
  'enrichment_tags',
  'assignee',
  'sla_due_at',
  'risk_accepted_until',
  'first_seen_at',
  'last_seen_at',
  'created_at',
] as const;

/** UTF-8 byte order mark: spreadsheets then read non-Latin text right. */
export const CSV_BOM = '\uFEFF';

/** Characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: a formula-like start gets a leading `'` (no formula runs when the file is opened),
 * then RFC 4180 quoting when the text holds a quote, comma or line break.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (cells: (string | number | null)[]): string => `${cells.map(csvCell).join(',')}\r\n`;
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const list = (values: readonly string[]): string => values.join(';');

export function csvHeader(): string {
  return CSV_BOM + line([...CSV_COLUMNS]);
}

/** One finding as a CSV line (CRLF-terminated), the columns of CSV_COLUMNS. */
export function csvRow(f: FindingView): string {
  return line([
    f.id,
    f.projectName,
    f.productName,
    f.severity,
    f.status,
    f.ruleId,
    ruleTitleOf(f),
    f.title,
    locationLabelOf(f),
    f.filePath,
    f.startLine,
    f.endLine,
    f.host,
    f.ip,
    f.port,
    f.protocol,
    f.url,
    f.cve,
    list(f.cwe),
    f.component,
    f.componentVersion,
    f.scanner,
    list(f.tags),
    list(f.reportTags),
    list(f.enrichmentTags),
    f.assignee?.email ?? null,
    iso(f.slaDueAt),
    iso(f.riskAcceptedUntil),
    iso(f.firstSeenAt),
    iso(f.lastSeenAt),
    iso(f.createdAt),
  ]);
}
