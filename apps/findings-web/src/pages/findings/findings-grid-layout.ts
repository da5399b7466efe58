/**
 * The findings grid's column widths. The table is laid out fixed (`table-layout: fixed` and a
 * `<colgroup>`), so widths do not follow the rows on screen: they stay the same across sorts,
 * pages and scrolling. The badge columns are as wide as their longest label in the UI language
 * (measured with the badge font), so no badge is ever cut; the title takes the rest.
 */
import type { Locale } from '../../i18n/i18n';

export type GridColumnId =
  | 'select'
  | 'severity'
  | 'status'
  | 'rule'
  | 'title'
  | 'location'
  | 'project'
  | 'scanner'
  | 'ticket'
  | 'sla_due_at'
  | 'last_seen_at';

/** A cell's horizontal padding (both sides) and a badge's own padding and border. */
const CELL_PADDING = 12;
const BADGE_CHROME = 2 * 8 + 2;
const SLACK = 6;

let canvas: HTMLCanvasElement | undefined;
let family: string | undefined;

/** The width of `text` in a small bold badge (10 px, the page's font), in pixels. */
function badgeTextWidth(text: string): number {
  canvas ??= document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return text.length * 8;
  // Read once: each read of a computed style forces a style recalculation of the page.
  family ??= getComputedStyle(document.body).fontFamily || 'sans-serif';
  context.font = `700 10px ${family}`;
  // letter-spacing of Mantine's badge: 0.25 px
  return context.measureText(text).width + text.length * 0.25;
}

/** The width a column of badges needs for the longest of `labels`. */
export function badgeColumnWidth(labels: readonly string[], uppercase: boolean): number {
  const widest = Math.max(
    0,
    ...labels.map((label) => badgeTextWidth(uppercase ? label.toUpperCase() : label)),
  );
  return Math.ceil(widest + BADGE_CHROME + CELL_PADDING + SLACK);
}

/** Widths in pixels of every column but the title (which takes what is left). */
export function gridColumnWidths(
  severityLabels: readonly string[],
  statusLabels: readonly string[],
  headerLabels: { severity: string; status: string },
  locale: Locale,
): Record<Exclude<GridColumnId, 'title'>, number> {
  const header = (text: string) => Math.ceil(badgeTextWidth(text) * 1.3 + CELL_PADDING + 16);
  const date = locale === 'ru' ? 118 : 120;
  return {
    select: 34,
    severity: Math.max(badgeColumnWidth(severityLabels, true), header(headerLabels.severity)),
    status: Math.max(badgeColumnWidth(statusLabels, false), header(headerLabels.status)),
    rule: 190,
    location: 230,
    project: 150,
    scanner: 100,
    ticket: 90,
    sla_due_at: date,
    last_seen_at: date,
  };
}

/** The title keeps at least this much; narrower screens scroll the grid sideways. */
export const TITLE_MIN_WIDTH = 220;
