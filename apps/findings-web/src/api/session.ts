/**
 * The signed-in session: the access token lives in memory only; the refresh token is the
 * HttpOnly `findsvc_refresh` cookie (Path=/api/v1/auth, SameSite=Strict), which the browser
 * sends on the same origin. A reload restores the session through POST /auth/token/refresh.
 */
import type { components } from './schema.gen';

export type User = components['schemas']['UserDto'];
type Listener = () => void;

let accessToken: string | undefined;
let user: User | undefined;
let refreshing: Promise<boolean> | undefined;
const listeners = new Set<Listener>();
let locale = 'en';

export function currentAccessToken(): string | undefined {
  return accessToken;
}

export function currentUser(): User | undefined {
  return user;
}

export function setLocaleHeader(value: string): void {
  locale = value;
}

export function acceptLanguage(): string {
  return locale;
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify() {
  for (const listener of listeners) listener();
}

export function setSession(token: string | undefined, signedIn: User | undefined): void {
  accessToken = token;
  user = signedIn;
  notify();
}

/**
 * The refresh that public/session-boot.js started while the bundle loaded, taken once: the
 * first restore uses its answer instead of rotating the refresh token a second time.
 */
function takeBootRefresh(): Promise<Response | undefined> | undefined {
  const holder = globalThis as { __findingsSessionBoot?: Promise<Response | undefined> };
  const pending = holder.__findingsSessionBoot;
  holder.__findingsSessionBoot = undefined;
  return pending;
}

let restored: Promise<boolean> | undefined;

/**
 * The page's start-up restore of the session: one refresh per page load, however many callers
 * ask (main.tsx before the first render, useSession after it — a second refresh would rotate
 * the token again for nothing).
 */
export function restoreSession(): Promise<boolean> {
  restored ??= refreshSession();
  return restored;
}

/** One refresh at a time: concurrent 401s wait for the same rotation (a second one would reuse a rotated token). */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const fresh = () =>
        fetch('/api/v1/auth/token/refresh', {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Accept-Language': locale },
        });
      // The boot's request failed before an answer (network): ask again.
      const res = (await takeBootRefresh()) ?? (await fresh());
      if (!res.ok) {
        setSession(undefined, undefined);
        return false;
      }
      const body = (await res.json()) as {
        data: { access_token: string; user: User };
      };
      setSession(body.data.access_token, body.data.user);
      return true;
    } catch {
      setSession(undefined, undefined);
      return false;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}
