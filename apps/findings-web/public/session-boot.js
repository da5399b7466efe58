/*
 * Starts the session refresh (POST /api/v1/auth/token/refresh, the HttpOnly refresh cookie)
 * while the app's bundle is still loading, and leaves the pending answer for src/api/session.ts,
 * which takes it once instead of sending its own. A classic script, run before the deferred
 * module bundle: the app can never refresh first and rotate the token twice.
 */
(function () {
  var locale = null;
  try {
    locale = window.localStorage.getItem('findings-web.locale');
  } catch (e) {
    locale = null;
  }
  var headers = locale === 'en' || locale === 'ru' ? { 'Accept-Language': locale } : {};
  var pending = fetch('/api/v1/auth/token/refresh', {
    method: 'POST',
    credentials: 'same-origin',
    headers: headers,
  }).catch(function () {
    return undefined;
  });
  Object.defineProperty(window, '__findingsSessionBoot', {
    value: pending,
    configurable: true,
    writable: true,
  });
})();
