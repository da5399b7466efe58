/**
 * A signed-in session of a web UI: the access token lives in memory only; the refresh token is
 * an HttpOnly cookie the service set at sign-in (Path=/api/v1/auth, SameSite=Strict), which the
 * browser sends on the same origin (each app's server proxies the API). A reload restores the
 * session through the service's refresh route.
 *
 * Each app makes one store with its service's refresh call and answer shape; the store keeps
 * the rules both need: one refresh at a time (a second concurrent one would reuse a rotated
 * token and end the session), one start-up restore per page load, and the answer of the
 * refresh its `public/session-boot.js` started before the bundle loaded, taken once.
 */
export interface SessionStoreOptions<U> {
  /** Sends the service's refresh request (the cookie goes along), in the UI language. */
  refresh(locale: string): Promise<Response>;
  /** The access token and the user from the refresh answer's JSON body. */
  parse(body: unknown): { token: string; user: U };
  /** The window property its session-boot.js left the pending refresh in, if any. */
  bootGlobal?: string;
}

export interface SessionStore<U> {
  currentAccessToken(): string | undefined;
  currentUser(): U | undefined;
  setLocaleHeader(value: string): void;
  acceptLanguage(): string;
  subscribeSession(listener: () => void): () => void;
  setSession(token: string | undefined, user: U | undefined): void;
  /** The page's start-up restore: one refresh per page load, however many callers ask. */
  restoreSession(): Promise<boolean>;
  /** One refresh at a time: concurrent 401s wait for the same rotation. */
  refreshSession(): Promise<boolean>;
}

export function createSessionStore<U>(options: SessionStoreOptions<U>): SessionStore<U> {
  let accessToken: string | undefined;
  let user: U | undefined;
  let refreshing: Promise<boolean> | undefined;
  let restored: Promise<boolean> | undefined;
  let locale = 'en';
  const listeners = new Set<() => void>();

  const setSession = (token: string | undefined, signedIn: U | undefined) => {
    accessToken = token;
    user = signedIn;
    for (const listener of listeners) listener();
  };

  const takeBootRefresh = (): Promise<Response | undefined> | undefined => {
    if (!options.bootGlobal) return undefined;
    const holder = globalThis as unknown as Record<
      string,
      Promise<Response | undefined> | undefined
    >;
    const pending = holder[options.bootGlobal];
    holder[options.bootGlobal] = undefined;
    return pending;
  };

  const refreshSession = (): Promise<boolean> => {
    refreshing ??= (async () => {
      try {
        // The boot's request failed before an answer (network): ask again.
        const res = (await takeBootRefresh()) ?? (await options.refresh(locale));
        if (!res.ok) {
          setSession(undefined, undefined);
          return false;
        }
        const { token, user: signedIn } = options.parse(await res.json());
        setSession(token, signedIn);
        return true;
      } catch {
        setSession(undefined, undefined);
        return false;
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  };

  return {
    currentAccessToken: () => accessToken,
    currentUser: () => user,
    setLocaleHeader: (value) => {
      locale = value;
    },
    acceptLanguage: () => locale,
    subscribeSession: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setSession,
    restoreSession: () => {
      restored ??= refreshSession();
      return restored;
    },
    refreshSession,
  };
}
