import { useSessionOf } from '@platform/web-ui';
import { session } from '../api/session';

/** The signed-in user (undefined when signed out) and whether the start-up refresh has finished. */
export function useSession() {
  return useSessionOf(session);
}
