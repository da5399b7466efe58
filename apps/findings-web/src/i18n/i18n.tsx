import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { setLocaleHeader } from '../api/session';
import { en, type MessageKey } from './en';
import { ru } from './ru';

export type Locale = 'en' | 'ru';
const dictionaries: Record<Locale, Record<MessageKey, string>> = { en, ru };
const STORAGE_KEY = 'findings-web.locale';

/** A choice made in the UI wins; otherwise the browser's languages (what it sends as Accept-Language). */
export function initialLocale(): Locale {
  const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'ru') return stored;
  for (const language of globalThis.navigator?.languages ?? []) {
    const primary = language.toLowerCase().split('-')[0];
    if (primary === 'ru' || primary === 'en') return primary;
  }
  return 'en';
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

interface I18n {
  locale: Locale;
  setLocale(locale: Locale): void;
  t: Translate;
}

const I18nContext = createContext<I18n | undefined>(undefined);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(() => {
    const first = initialLocale();
    setLocaleHeader(first);
    return first;
  });
  const setLocale = useCallback((next: Locale) => {
    globalThis.localStorage?.setItem(STORAGE_KEY, next);
    setLocaleHeader(next);
    setLocaleState(next);
  }, []);
  const t = useCallback<Translate>(
    (key, params) =>
      dictionaries[locale][key].replace(/\{(\w+)\}/g, (_, name: string) =>
        String(params?.[name] ?? `{${name}}`),
      ),
    [locale],
  );
  const value = useMemo(() => ({ locale, setLocale, t }), [locale, setLocale, t]);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
