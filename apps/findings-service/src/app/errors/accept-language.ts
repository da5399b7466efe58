import { Locale, LOCALES } from './error-messages';

/**
 * Picks the supported locale the client prefers most (`Accept-Language` with q-values);
 * English when nothing supported is acceptable.
 */
export function negotiateLocale(header: string | string[] | undefined): Locale {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return 'en';
  let best: { locale: Locale; q: number; index: number } | undefined;
  value.split(',').forEach((part, index) => {
    const [tag, ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) return;
    const primary = tag.trim().toLowerCase().split('-')[0];
    const locale = LOCALES.find((l) => l === primary) ?? (primary === '*' ? 'en' : undefined);
    if (locale === undefined) return;
    if (!best || q > best.q) best = { locale, q, index };
  });
  return best?.locale ?? 'en';
}
