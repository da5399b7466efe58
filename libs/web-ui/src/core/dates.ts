/**
 * Dates in one format everywhere, in the UI language: day/month/year with the locale's
 * separator (en `25/11/2026, 14:03`, ru `25.11.2026, 14:03`). The date pickers type and show
 * days in the same format (DAY_PICKER_FORMAT), and chart axes use formatDay.
 */
import type { Locale } from './locale';

const TAG: Record<Locale, string> = { en: 'en-GB', ru: 'ru-RU' };

/** The dayjs format of a day as formatDay writes it, for the date pickers. */
export const DAY_PICKER_FORMAT: Record<Locale, string> = { en: 'DD/MM/YYYY', ru: 'DD.MM.YYYY' };

const MOMENT: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
};
const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };

// A formatter per locale and shape: building one costs far more than formatting (a list of 100
// rows has 200 dates).
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: Locale | string, shape: 'moment' | 'day'): Intl.DateTimeFormat {
  const tag = TAG[locale as Locale] ?? TAG.en;
  const key = `${tag} ${shape}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(tag, shape === 'moment' ? MOMENT : DAY);
    formatters.set(key, made);
  }
  return made;
}

/** A moment: day and time. */
export function formatDate(value: string | null | undefined, locale: Locale | string): string {
  if (!value) return '—';
  const moment = new Date(value);
  return Number.isNaN(moment.getTime()) ? value : formatter(locale, 'moment').format(moment);
}

/**
 * A day: a moment in the browser's time zone, or a calendar day (`YYYY-MM-DD`, as the API's
 * trend points have it) as that day.
 */
export function formatDay(value: string | null | undefined, locale: Locale | string): string {
  if (!value) return '—';
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00`) : new Date(value);
  return Number.isNaN(day.getTime()) ? value : formatter(locale, 'day').format(day);
}
