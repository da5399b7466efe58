/** The UI languages every web UI of the platform offers. */
export type Locale = 'en' | 'ru';
export const LOCALES: readonly Locale[] = ['en', 'ru'];

function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'ru';
}

/**
 * The language at start: a choice stored in the UI (localStorage under `storageKey`) wins;
 * otherwise the browser's languages (what it sends as Accept-Language); else English.
 */
export function initialLocale(storageKey: string): Locale {
  const stored = globalThis.localStorage?.getItem(storageKey);
  if (isLocale(stored)) return stored;
  for (const language of globalThis.navigator?.languages ?? []) {
    const primary = language.toLowerCase().split('-')[0];
    if (isLocale(primary)) return primary;
  }
  return 'en';
}

/** `{name}` placeholders of a message filled from `params` (a missing one stays as it is). */
export function fillMessage(message: string, params?: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (_, name: string) => String(params?.[name] ?? `{${name}}`));
}
