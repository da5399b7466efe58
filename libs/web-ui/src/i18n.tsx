import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { fillMessage, initialLocale, type Locale } from './core/locale';

/** A message by key in the UI language, `{name}` placeholders filled from `params`. */
export type Translate<K extends string> = (
  key: K,
  params?: Record<string, string | number>,
) => string;

export interface I18n<K extends string> {
  locale: Locale;
  setLocale(locale: Locale): void;
  t: Translate<K>;
  /** Whether the dictionary has `key` (messages for names the API sends, e.g. `field.tags`). */
  has(key: string): boolean;
}

const I18nContext = createContext<I18n<string> | undefined>(undefined);

/**
 * The UI language and its dictionary. `storageKey` keeps a choice made in the UI (localStorage);
 * `onLocale` hears every change, first included (the app's API client sends it as
 * Accept-Language, so the services answer their messages in it). Sets `<html lang>`.
 */
export function I18nProvider({
  dictionaries,
  storageKey,
  onLocale,
  children,
}: {
  dictionaries: Record<Locale, Record<string, string>>;
  storageKey: string;
  onLocale?: (locale: Locale) => void;
  children: ReactNode;
}) {
  const [locale, setLocaleState] = useState<Locale>(() => {
    const first = initialLocale(storageKey);
    onLocale?.(first);
    return first;
  });
  const setLocale = useCallback(
    (next: Locale) => {
      globalThis.localStorage?.setItem(storageKey, next);
      onLocale?.(next);
      setLocaleState(next);
    },
    [storageKey, onLocale],
  );
  const dictionary = dictionaries[locale];
  const t = useCallback<Translate<string>>(
    (key, params) => fillMessage(dictionary[key] ?? key, params),
    [dictionary],
  );
  const has = useCallback((key: string) => Object.hasOwn(dictionary, key), [dictionary]);
  const value = useMemo(() => ({ locale, setLocale, t, has }), [locale, setLocale, t, has]);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The language and `t` typed with the app's (or this library's) message keys. */
export function useI18nOf<K extends string>(): I18n<K> {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value as I18n<K>;
}
