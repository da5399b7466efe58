import type { SessionStore } from './session-store';

/**
 * A fetch for the app's typed client (openapi-fetch): sends the access token and the UI
 * language; on 401 rotates the session once through the refresh cookie and retries. Answers of
 * the service's own session routes (`authPrefix`) are returned as they are.
 */
export function createAuthFetch(
  session: Pick<SessionStore<unknown>, 'currentAccessToken' | 'acceptLanguage' | 'refreshSession'>,
  authPrefix = '/api/v1/auth/',
): (request: Request) => Promise<Response> {
  const withHeaders = (request: Request): Request => {
    const headers = new Headers(request.headers);
    const token = session.currentAccessToken();
    if (token !== undefined) headers.set('Authorization', `Bearer ${token}`);
    headers.set('Accept-Language', session.acceptLanguage());
    return new Request(request, { headers, credentials: 'same-origin' });
  };
  return async (request) => {
    const retry = request.clone();
    const response = await fetch(withHeaders(request));
    if (response.status !== 401 || new URL(request.url).pathname.startsWith(authPrefix)) {
      return response;
    }
    if (!(await session.refreshSession())) return response;
    return fetch(withHeaders(retry));
  };
}
