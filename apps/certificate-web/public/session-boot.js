/*
 * Starts the session refresh (POST /api/v1/auth/refresh, the HttpOnly certsvc_refresh_token
 * cookie) while the app's bundle is still loading, and leaves the pending answer for
 * src/api/session.ts, which takes it once instead of sending its own (libs/web-ui's session
 * store). A classic script, run before the deferred module bundle: the app can never refresh
 * first and rotate the token twice. The OIDC callback page (/auth/callback) signs in with a
 * code instead: no refresh there.
 */
(function () {
  if (window.location.pathname === '/auth/callback') return;
  var pending = fetch('/api/v1/auth/refresh', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  }).catch(function () {
    return undefined;
  });
  Object.defineProperty(window, '__certificateSessionBoot', {
    value: pending,
    configurable: true,
    writable: true,
  });
})();
