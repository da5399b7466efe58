import { Injectable, Logger } from '@nestjs/common';
import { CorpAllowlistRepository } from './corp-allowlist.repository';
import { CorpOwnershipWebhook } from './corp-ownership-webhook';
import { PolicySettingsService } from './policy-settings.service';
import { usesAllowlist } from './sa-auto-approve.policy';

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
    private readonly webhook: CorpOwnershipWebhook,
  ) {}

  /** Whether the check applies at all (policy other than `off`). */
  async enabled(): Promise<boolean> {
    return (await this.policies.saAutoApprove()).value.policy !== 'off';
  }

  async check(serial: string): Promise<CorpOwnershipVerdict> {
    return (await this.checkMany([serial])).get(serial) ?? 'error';
  }

  /**
   * Verdicts for a batch of serials: one policy read, one allowlist query and, for the serials
   * the webhook decides, ceil(n / 100) webhook calls, whatever the batch size.
   *  - `webhook`: the webhook decides every serial;
   *  - `allowlist_or_webhook`: listed serials pass, the webhook decides the others;
   *  - `allowlist_and_webhook`: unlisted serials are denied, the webhook decides the listed.
   */
  async checkMany(serials: readonly string[]): Promise<Map<string, CorpOwnershipVerdict>> {
    const unique = [...new Set(serials)];
    try {
      const { value: policy } = await this.policies.saAutoApprove();
      if (policy.policy === 'off') return new Map(unique.map((s) => [s, 'allowed' as const]));
      const listed = usesAllowlist(policy.policy)
        ? await this.allowlist.listed(unique)
        : new Set<string>();
      if (policy.policy === 'allowlist') {
        return new Map(unique.map((s) => [s, listed.has(s) ? 'allowed' : 'denied']));
      }
      const verdicts = new Map<string, CorpOwnershipVerdict>();
      const ask: string[] = [];
      for (const serial of unique) {
        if (policy.policy === 'allowlist_or_webhook' && listed.has(serial)) {
          verdicts.set(serial, 'allowed');
        } else if (policy.policy === 'allowlist_and_webhook' && !listed.has(serial)) {
          verdicts.set(serial, 'denied');
        } else {
          ask.push(serial);
        }
      }
      for (const [serial, verdict] of await this.webhook.ask(policy, ask)) {
        verdicts.set(serial, verdict);
      }
      return verdicts;
    } catch (error) {
      this.logger.warn(
        { serials: unique.length, error: error instanceof Error ? error.message : String(error) },
        'corp-ownership check failed',
      );
      return new Map(unique.map((serial) => [serial, 'error' as const]));
    }
  }
}
