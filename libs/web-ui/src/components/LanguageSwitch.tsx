import { SegmentedControl } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Locale } from '../core/locale';
import type { WebUiMessageKey } from '../core/messages';
import { useI18nOf } from '../i18n';

/** en/ru; switching refetches, so API messages come back in the new language too. */
export function LanguageSwitch() {
  const { locale, setLocale, t } = useI18nOf<WebUiMessageKey>();
  const queryClient = useQueryClient();
  return (
    <SegmentedControl
      size="xs"
      // Mantine's dimmed inactive label is below WCAG AA contrast on its grey track.
      styles={{ label: { color: 'var(--mantine-color-black)' } }}
      aria-label={t('common.language')}
      value={locale}
      onChange={(value) => {
        setLocale(value as Locale);
        void queryClient.invalidateQueries();
      }}
      data={[
        { value: 'en', label: 'English' },
        { value: 'ru', label: 'Русский' },
      ]}
    />
  );
}
