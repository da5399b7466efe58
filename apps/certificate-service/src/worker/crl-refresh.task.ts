import type { PeriodicTask } from '@platform/database';
import type { CrlService } from '../modules/crl/crl.service';

/** How often the worker checks whether the CRL is due for re-signing. */
export const CRL_REFRESH_CHECK_MS = 15 * 60_000;

/** Re-signs the built-in CA's CRL before its nextUpdate (revocations re-sign it at once). */
export function crlRefreshTask(crl: CrlService, everyMs = CRL_REFRESH_CHECK_MS): PeriodicTask {
  return { name: 'CRL refresh', everyMs, run: () => crl.refreshIfDue() };
}
