/**
 * @platform/web-ui: what the platform's web UIs (apps/findings-web, apps/certificate-web)
 * share — the i18n plumbing (en/ru), the session store and its refresh, the API error type and
 * its display, the page frame with the navigation, the paged table, the language switch, the
 * server/UI version warning and the one-time secret. Browser code (React + Mantine); the pure
 * part is also `@platform/web-ui/core`, the Playwright helpers `@platform/web-ui/e2e`.
 */
export * from './core';
export { I18nProvider, useI18nOf, type I18n, type Translate } from './i18n';
export { useSessionOf } from './use-session';
export { ErrorAlert } from './components/ErrorAlert';
export { LanguageSwitch } from './components/LanguageSwitch';
export { OneTimeSecret } from './components/OneTimeSecret';
export { VersionWarning } from './components/VersionWarning';
export { AppLayout, Loading, type NavItem } from './layout/AppLayout';
export { PagedTable, type Column, type Selection } from './table/PagedTable';
