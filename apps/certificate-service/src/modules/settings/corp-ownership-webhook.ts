import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { WebhookHttp } from '../webhooks/webhook-http';
import { CORP_OWNERSHIP_SECRET_LABEL, openSecret, sealSecret } from '../webhooks/webhook-secret';
import { signedHeaders } from '../webhooks/webhook-signing';
import { WebhooksError } from '../webhooks/webhooks.errors';
import type { SaAutoApprovePolicy } from './sa-auto-approve.policy';

/** Serials per ownership query; a bulk approval makes ceil(n / 100) calls, 4 at a time. */
export const CORP_OWNERSHIP_BATCH = 100;
const PARALLEL_CALLS = 4;
export const CORP_OWNERSHIP_EVENT = 'corp_ownership.check';

/**
 * The corp-ownership webhook (docs/certificate-service/webhooks.md, "Corp-ownership query"):
 * a signed POST `{"type":"corp_ownership.check","serials":[...]}` through the request-forgery
 * guard, answered `{"results":[{"serial":"S","allowed":true|false}]}` (or `{"allowed":...}`
 * for a single serial). A serial gets `allowed`/`denied` only from a well-formed answer
 * naming it; a missing configuration, refusal, timeout, non-2xx or malformed answer is `error`.
 */
@Injectable()
export class CorpOwnershipWebhook {
  private readonly logger = new Logger('CorpOwnershipWebhook');

  constructor(
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly http: WebhookHttp,
  ) {}

  /** The guard's checks without DNS, when the URL is saved (400 `webhook_url_refused`). */
  checkUrl(url: string): void {
    const check = this.http.check(url);
    if (!check.ok) {
      throw new WebhooksError('webhook_url_refused', `${check.reason}: ${check.message}`);
    }
  }

  /** Seals a new secret (409 `webhook_encryption_key_missing` without the key). */
  seal(secret: string): string {
    const key = this.config.webhooks.encryptionKey;
    if (!key) throw new WebhooksError('webhook_encryption_key_missing');
    return sealSecret(secret, key, CORP_OWNERSHIP_SECRET_LABEL);
  }

  /** Verdicts of the webhook for these serials: `allowed`, `denied` or `error` each. */
  async ask(
    policy: SaAutoApprovePolicy,
    serials: readonly string[],
  ): Promise<Map<string, 'allowed' | 'denied' | 'error'>> {
    const verdicts = new Map<string, 'allowed' | 'denied' | 'error'>(
      serials.map((s) => [s, 'error']),
    );
    if (serials.length === 0) return verdicts;
    const key = this.config.webhooks.encryptionKey;
    const secret =
      key && policy.webhookSecretSealed
        ? openSecret(policy.webhookSecretSealed, key, CORP_OWNERSHIP_SECRET_LABEL)
        : undefined;
    if (policy.webhookUrl === null || secret === undefined) {
      this.logger.warn(
        {
          serials: serials.length,
          url_set: policy.webhookUrl !== null,
          secret_readable: secret !== undefined,
        },
        'corp-ownership webhook not configured (URL and secret); refusing',
      );
      return verdicts;
    }
    const chunks: string[][] = [];
    for (let i = 0; i < serials.length; i += CORP_OWNERSHIP_BATCH) {
      chunks.push(serials.slice(i, i + CORP_OWNERSHIP_BATCH));
    }
    const url = policy.webhookUrl;
    for (let i = 0; i < chunks.length; i += PARALLEL_CALLS) {
      await Promise.all(
        chunks.slice(i, i + PARALLEL_CALLS).map(async (chunk) => {
          for (const [serial, verdict] of await this.call(
            url,
            secret,
            policy.webhookTimeoutMs,
            chunk,
          )) {
            verdicts.set(serial, verdict);
          }
        }),
      );
    }
    return verdicts;
  }

  private async call(
    url: string,
    secret: string,
    timeoutMs: number,
    serials: readonly string[],
  ): Promise<Map<string, 'allowed' | 'denied'>> {
    const body = JSON.stringify({ type: CORP_OWNERSHIP_EVENT, serials });
    const headers = signedHeaders({
      secret,
      body,
      event: CORP_OWNERSHIP_EVENT,
      deliveryId: randomUUID(),
    });
    const outcome = await this.http.post(url, body, headers, {
      caller: 'corp-ownership',
      timeoutMs,
    });
    const fail = (error: string) => {
      this.logger.warn(
        { serials: serials.length, error },
        'corp-ownership webhook failed; refusing',
      );
      return new Map<string, 'allowed' | 'denied'>();
    };
    if (!outcome.ok) return fail(`${outcome.reason}: ${outcome.message}`);
    if (outcome.status < 200 || outcome.status > 299) return fail(`http_${outcome.status}`);
    let answer: unknown;
    try {
      answer = JSON.parse(Buffer.from(outcome.body).toString('utf8'));
    } catch {
      return fail('malformed answer: not JSON');
    }
    const verdicts = parseAnswer(answer, serials);
    return verdicts ?? fail('malformed answer: expected {"results":[{"serial","allowed"}]}');
  }
}

/** Verdicts named by a well-formed answer; undefined when the answer is malformed. */
function parseAnswer(
  answer: unknown,
  serials: readonly string[],
): Map<string, 'allowed' | 'denied'> | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const record = answer as Record<string, unknown>;
  if (serials.length === 1 && typeof record.allowed === 'boolean' && !('results' in record)) {
    return new Map([[serials[0], record.allowed ? 'allowed' : 'denied']]);
  }
  if (!Array.isArray(record.results)) return undefined;
  const asked = new Set(serials);
  const verdicts = new Map<string, 'allowed' | 'denied'>();
  for (const item of record.results as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { serial, allowed } = item as Record<string, unknown>;
    if (typeof serial !== 'string' || typeof allowed !== 'boolean') return undefined;
    if (!asked.has(serial)) continue;
    // A serial named twice with different answers is not an answer.
    const verdict = allowed ? 'allowed' : 'denied';
    if (verdicts.has(serial) && verdicts.get(serial) !== verdict) return undefined;
    verdicts.set(serial, verdict);
  }
  return verdicts;
}
