import { Injectable, Logger } from '@nestjs/common';
import { CorpAllowlistRepository } from './corp-allowlist.repository';
import { PolicySettingsService } from './policy-settings.service';
import { usesAllowlist, usesWebhook, type SaAutoApprovePolicy } from './sa-auto-approve.policy';

/** `error` is never permission: the approval flow refuses on `denied` and on `error`. */
export type CorpOwnershipVerdict = 'allowed' | 'denied' | 'error';

/**
 * Corp-ownership check for approval by a service account (policy `sa-auto-approve`).
 * With policy `off` the check is disabled and answers `allowed`.
 */
@Injectable()
export class CorpOwnershipCheck {
  private readonly logger = new Logger('CorpOwnershipCheck');
  constructor(
    private readonly policies: PolicySettingsService,
    private readonly allowlist: CorpAllowlistRepository,
  ) {}

  /** Whether the check applies at all (policy other than `off`). */
  async enabled(): Promise<boolean> {
    return (await this.policies.saAutoApprove()).value.policy !== 'off';
  }

  async check(serial: string): Promise<CorpOwnershipVerdict> {
    return (await this.checkMany([serial])).get(serial) ?? 'error';
  }

  /**
   * Verdicts for a batch of serials: one policy read and one allowlist query, whatever the
   * batch size (bulk approval by a service account).
   */
  async checkMany(serials: readonly string[]): Promise<Map<string, CorpOwnershipVerdict>> {
    const unique = [...new Set(serials)];
    try {
      const { value: policy } = await this.policies.saAutoApprove();
      const listed = usesAllowlist(policy.policy)
        ? await this.allowlist.listed(unique)
        : new Set<string>();
      return new Map(
        unique.map((serial) => [serial, this.verdict(policy, serial, listed.has(serial))]),
      );
    } catch (error) {
      this.logger.warn(
        { serials: unique.length, error: error instanceof Error ? error.message : String(error) },
        'corp-ownership check failed',
      );
      return new Map(unique.map((serial) => [serial, 'error' as const]));
    }
  }

  private verdict(
    policy: SaAutoApprovePolicy,
    serial: string,
    listed: boolean,
  ): CorpOwnershipVerdict {
    switch (policy.policy) {
      case 'off':
        return 'allowed';
      case 'allowlist':
        return listed ? 'allowed' : 'denied';
      case 'webhook':
        return this.askWebhook(policy, serial);
      case 'allowlist_or_webhook':
        return listed ? 'allowed' : this.askWebhook(policy, serial);
      case 'allowlist_and_webhook':
        return listed ? this.askWebhook(policy, serial) : 'denied';
    }
  }

  /** No ownership webhook client exists: every webhook answer is `error`, which refuses approval. */
  private askWebhook(policy: SaAutoApprovePolicy, serial: string): CorpOwnershipVerdict {
    if (!usesWebhook(policy.policy) || policy.webhookUrl === null) {
      this.logger.warn({ serial }, 'corp-ownership webhook not configured; refusing');
      return 'error';
    }
    this.logger.warn({ serial }, 'corp-ownership webhook not implemented yet; refusing');
    return 'error';
  }
}
