import type { PeriodicTask } from '@platform/database';
import type { CertsvcConfig } from '../app/config/certsvc-config';
import type { ScepPollerService } from '../modules/scep/scep-poller.service';

/**
 * The SCEP poller every `CERTSVC_SCEP_POLL_SECONDS` (30): run by the leading worker like
 * every periodic task; its claims (`FOR UPDATE SKIP LOCKED` plus a lease on `next_poll_at`)
 * keep two pollers off the same record even if several replicas ran it at once.
 */
export function scepPollTask(
  config: CertsvcConfig,
  poller: ScepPollerService,
  everyMs = config.scepPollSeconds * 1000,
): PeriodicTask {
  return { name: 'SCEP poll', everyMs, run: async () => void (await poller.pollOnce()) };
}
