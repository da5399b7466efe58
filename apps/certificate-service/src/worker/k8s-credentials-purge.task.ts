import type { PeriodicTask } from '@platform/database';
import type { K8sCredentialsRetention } from '../modules/k8s/k8s-credentials-retention';

/** How often the worker purges expired Kubernetes credential rows. */
export const K8S_CREDENTIALS_PURGE_MS = 3_600_000;

/** Deletes `k8s_credentials` rows expired for more than a day (one statement). */
export function k8sCredentialsPurgeTask(
  retention: K8sCredentialsRetention,
  everyMs = K8S_CREDENTIALS_PURGE_MS,
): PeriodicTask {
  return {
    name: 'Kubernetes credential rows purge',
    everyMs,
    run: async () => {
      await retention.purge();
    },
  };
}
