import { Injectable, Logger, Module } from '@nestjs/common';
import { K8sCallersRepository } from './k8s-callers.repository';

/** Expired credential rows are kept this long (they hold no seat; the audit log keeps the issuance). */
export const K8S_CREDENTIAL_RETENTION_MS = 24 * 3_600_000;

/** Purges `k8s_credentials` rows expired for longer than the retention (worker task). */
@Injectable()
export class K8sCredentialsRetention {
  private readonly logger = new Logger('K8sCredentialsRetention');
  constructor(private readonly callers: K8sCallersRepository) {}

  async purge(now = new Date()): Promise<number> {
    const purged = await this.callers.purgeExpiredBefore(
      new Date(now.getTime() - K8S_CREDENTIAL_RETENTION_MS),
    );
    if (purged > 0) this.logger.log({ purged }, 'expired Kubernetes credential rows purged');
    return purged;
  }
}

/** What the worker needs of the k8s module (not the broker listener, not the routes). */
@Module({
  providers: [K8sCallersRepository, K8sCredentialsRetention],
  exports: [K8sCredentialsRetention],
})
export class K8sRetentionModule {}
