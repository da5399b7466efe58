/**
 * The messages of the shared components (layout, error display, language switch, version
 * warning, one-time secret, paged table). Each app spreads them first into its own dictionaries
 * (`{ ...webUiEn, ... }`), so its message keys include these; an app may override one (the
 * findings UI's `secret.warning` speaks of scanners).
 */
export const webUiEn = {
  'nav.main': 'Main navigation',
  'common.language': 'Language',
  'common.loading': 'Loading…',
  'common.error': 'Error',
  'common.loadMore': 'Load more',
  'common.selectAll': 'Select all',
  'common.selectRow': 'Select {name}',
  'common.noRows': 'Nothing here.',
  'auth.signOut': 'Sign out',
  'version.mismatch':
    'This UI is version {ui}, the API is {api}: some screens may not work. Reload after the upgrade finishes.',
  'secret.title': 'Secret — shown once',
  'secret.warning':
    'Copy it now and store it safely: it is shown only this once and cannot be read again.',
  'secret.copy': 'Copy',
  'secret.copied': 'Copied',
  'secret.done': 'I have stored it',
} as const;

export type WebUiMessageKey = keyof typeof webUiEn;

export const webUiRu: Record<WebUiMessageKey, string> = {
  'nav.main': 'Основная навигация',
  'common.language': 'Язык',
  'common.loading': 'Загрузка…',
  'common.error': 'Ошибка',
  'common.loadMore': 'Загрузить ещё',
  'common.selectAll': 'Выбрать все',
  'common.selectRow': 'Выбрать {name}',
  'common.noRows': 'Здесь пусто.',
  'auth.signOut': 'Выйти',
  'version.mismatch':
    'Версия интерфейса {ui}, версия API {api}: часть экранов может не работать. Обновите страницу после завершения обновления.',
  'secret.title': 'Секрет — показывается один раз',
  'secret.warning':
    'Скопируйте его сейчас и сохраните в надёжном месте: он показан только один раз и больше не будет доступен.',
  'secret.copy': 'Копировать',
  'secret.copied': 'Скопировано',
  'secret.done': 'Я сохранил секрет',
};
