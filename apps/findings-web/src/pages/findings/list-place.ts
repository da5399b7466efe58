/**
 * Where the analyst was in the findings list: the view (the URL's search: filters or query,
 * sort, order), how far the grid was scrolled and which row was active. Kept for the tab
 * (sessionStorage), so "Back to the list" and the browser's back button return to the same
 * rows at the same place.
 */
export interface ListPlace {
  /** `location.search` of the list (`?severity=HIGH&sort=severity`, or empty). */
  search: string;
  /** The grid's scrollTop in pixels. */
  offset: number;
  /** Index of the active (keyboard) row. */
  active: number;
}

const KEY = 'findings-web.list-place';

export function saveListPlace(place: ListPlace): void {
  try {
    globalThis.sessionStorage?.setItem(KEY, JSON.stringify(place));
  } catch {
    // storage full or refused: the place is simply not kept
  }
}

export function savedListPlace(): ListPlace | undefined {
  try {
    const raw = globalThis.sessionStorage?.getItem(KEY);
    if (!raw) return undefined;
    const place = JSON.parse(raw) as Partial<ListPlace>;
    if (typeof place.search !== 'string') return undefined;
    return {
      search: place.search,
      offset: Number.isFinite(place.offset) ? Math.max(0, Number(place.offset)) : 0,
      active: Number.isInteger(place.active) ? Math.max(0, Number(place.active)) : 0,
    };
  } catch {
    return undefined;
  }
}

/** The list as the analyst left it (its filters, sort and order). */
export function listHref(): string {
  return `/findings${savedListPlace()?.search ?? ''}`;
}
