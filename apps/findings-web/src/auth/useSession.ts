import { useEffect, useState, useSyncExternalStore } from 'react';
import { currentAccessToken, currentUser, restoreSession, subscribeSession } from '../api/session';

/** The signed-in user (undefined when signed out) and whether the start-up refresh has finished. */
export function useSession() {
  const user = useSyncExternalStore(subscribeSession, currentUser);
  const token = useSyncExternalStore(subscribeSession, currentAccessToken);
  const [restoring, setRestoring] = useState(() => currentAccessToken() === undefined);
  useEffect(() => {
    if (!restoring) return;
    let active = true;
    void restoreSession().finally(() => {
      if (active) setRestoring(false);
    });
    return () => {
      active = false;
    };
  }, [restoring]);
  return { user, signedIn: token !== undefined, restoring };
}
