/**
 * The pure part of @platform/web-ui (no React, no JSX): importable by the apps' API clients and
 * by their Jest unit tests (`@platform/web-ui/core`).
 */
export { ApiError, latestError, type FieldProblem } from './api-error';
export { createAuthFetch } from './auth-fetch';
export { DAY_PICKER_FORMAT, formatDate, formatDay } from './dates';
export { fillMessage, initialLocale, LOCALES, type Locale } from './locale';
export { webUiEn, webUiRu, type WebUiMessageKey } from './messages';
export { createSessionStore, type SessionStore, type SessionStoreOptions } from './session-store';
export { majorMinor } from './version';
