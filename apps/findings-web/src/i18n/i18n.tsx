import type { ReactNode } from 'react';
import {
  I18nProvider as SharedI18nProvider,
  initialLocale as sharedInitialLocale,
  useI18nOf,
  type I18n,
  type Locale,
  type Translate as SharedTranslate,
} from '@platform/web-ui';
import { setLocaleHeader } from '../api/session';
import { en, type MessageKey } from './en';
import { ru } from './ru';

export type { Locale };
export type Translate = SharedTranslate<MessageKey>;

const dictionaries: Record<Locale, Record<MessageKey, string>> = { en, ru };
const STORAGE_KEY = 'findings-web.locale';

/** A choice made in the UI wins; otherwise the browser's languages (what it sends as Accept-Language). */
export function initialLocale(): Locale {
  return sharedInitialLocale(STORAGE_KEY);
}

/** The findings UI's dictionaries on the shared i18n plumbing (@platform/web-ui). */
export function I18nProvider({ children }: { children: ReactNode }) {
  return (
    <SharedI18nProvider
      dictionaries={dictionaries}
      storageKey={STORAGE_KEY}
      onLocale={setLocaleHeader}
    >
      {children}
    </SharedI18nProvider>
  );
}

export function useI18n(): I18n<MessageKey> {
  return useI18nOf<MessageKey>();
}
