import { useEffect, useState, useSyncExternalStore } from 'react';
import type { SessionStore } from './core/session-store';

/** The signed-in user (undefined when signed out) and whether the start-up refresh has finished. */
export function useSessionOf<U>(store: SessionStore<U>) {
  const user = useSyncExternalStore(store.subscribeSession, store.currentUser);
  const token = useSyncExternalStore(store.subscribeSession, store.currentAccessToken);
  const [restoring, setRestoring] = useState(() => store.currentAccessToken() === undefined);
  useEffect(() => {
    if (!restoring) return;
    let active = true;
    void store.restoreSession().finally(() => {
      if (active) setRestoring(false);
    });
    return () => {
      active = false;
    };
  }, [restoring, store]);
  return { user, signedIn: token !== undefined, restoring };
}
