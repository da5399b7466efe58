import type { Context } from './command';

export type Cell = string | number | boolean | null | undefined;

function text(cell: Cell): string {
  if (cell === null || cell === undefined || cell === '') return '-';
  return String(cell).replace(/\s+/g, ' ');
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(headers: string[], rows: Cell[][]): string[] {
  const cells = [headers, ...rows.map((r) => r.map(text))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

/** `--json`: the value as one document; otherwise the table (or `empty` when no rows). */
export function emit(
  ctx: Context,
  value: unknown,
  headers: string[],
  rows: Cell[][],
  empty = '(none)',
): void {
  if (ctx.json) {
    ctx.out(JSON.stringify(value, null, 2));
    return;
  }
  if (rows.length === 0) {
    ctx.out(empty);
    return;
  }
  for (const line of table(headers, rows)) ctx.out(line);
}

export function shortTime(iso: string | null | undefined): string | undefined {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : undefined;
}
