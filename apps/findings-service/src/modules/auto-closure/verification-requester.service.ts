import { Inject, Injectable, Logger } from '@nestjs/common';
import { SealedBox } from '@platform/auth';
import { Clock } from '../../app/clock';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import type { Actor } from '../action-log/finding-action';
import { OutboundHttpClient } from '../outbound-http/outbound-http.client';
import { signBody } from './body-signature';
import { VerificationEndpointsRepository } from './verification-endpoints.repository';
import { VerificationsRepository, type VerificationTarget } from './verifications.repository';

/** Requests per outgoing call (a scanner answers each through the callback route). */
export const VERIFICATION_BATCH = 500;

/** Purpose of the sealed endpoint secrets (a key of its own derived from the secrets key). */
export const ENDPOINT_SECRET_PURPOSE = 'verification-endpoint-secret';

export interface SentRequests {
  /** Verification ids created. */
  ids: string[];
  /** Why the outgoing call failed (the requests are `failed`); undefined when it was accepted. */
  failure?: string;
}

/**
 * Asks a project's scanner to re-verify findings: creates the requests, then POSTs them to the
 * project's re-verification endpoint through the shared request-forgery guard
 * (docs/findings-service/auto-closure.md#re-verification-requests), signed with the endpoint's
 * secret. The scanner answers later through `POST /api/v1/scanner-callbacks/verify-finding`.
 */
@Injectable()
export class VerificationRequester {
  private readonly logger = new Logger('VerificationRequester');
  private readonly box: SealedBox;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly verifications: VerificationsRepository,
    private readonly endpoints: VerificationEndpointsRepository,
    private readonly http: OutboundHttpClient,
    private readonly clock: Clock,
  ) {
    this.box = new SealedBox(config.autoClosure.secretsKey, ENDPOINT_SECRET_PURPOSE);
  }

  /**
   * The automatic path: findings of the project whose streak reached the required checks and
   * were not asked about in this streak. Without an endpoint nothing is asked (findings then
   * wait for answers a scanner sends on its own).
   */
  async requestAutomatic(projectId: string): Promise<number> {
    const endpoint = await this.endpoints.get(projectId);
    if (!endpoint) return 0;
    const targets = await this.verifications.requestUnrequested(
      projectId,
      this.config.autoClosure.consecutiveChecks,
      this.clock.now(),
    );
    if (targets.length === 0) return 0;
    await this.send(endpoint.url, endpoint.secretSealed, targets);
    return targets.length;
  }

  /** A person asks for one finding (the manual re-verification route). */
  async requestManual(projectId: string, findingId: string, actor: Actor): Promise<SentRequests> {
    const endpoint = await this.endpoints.get(projectId);
    if (!endpoint) return { ids: [], failure: 'no_endpoint' };
    const targets = await this.verifications.createRequests(
      [findingId],
      'manual',
      actor,
      this.clock.now(),
    );
    const failure = await this.send(endpoint.url, endpoint.secretSealed, targets);
    return { ids: targets.map((t) => t.verificationId), failure };
  }

  /** Sends in batches; a failed batch marks its requests `failed` with the reason. */
  private async send(
    url: string,
    secretSealed: string,
    targets: VerificationTarget[],
  ): Promise<string | undefined> {
    const secret = this.box.open(secretSealed);
    let firstFailure: string | undefined;
    for (let i = 0; i < targets.length; i += VERIFICATION_BATCH) {
      const batch = targets.slice(i, i + VERIFICATION_BATCH);
      const failure =
        typeof secret === 'string'
          ? await this.post(url, secret, batch)
          : 'endpoint_secret_unreadable';
      if (failure) {
        firstFailure ??= failure;
        await this.verifications.markFailed(
          batch.map((t) => t.verificationId),
          failure,
        );
      }
    }
    return firstFailure;
  }

  private async post(
    url: string,
    secret: string,
    batch: VerificationTarget[],
  ): Promise<string | undefined> {
    const body = JSON.stringify({
      type: 'verification_request',
      requests: batch.map((t) => ({
        request_id: t.verificationId,
        finding_id: t.findingId,
        project_id: t.projectId,
        product_id: t.productId,
        scanner: t.scanner,
        rule_id: t.ruleId,
        cve: t.cve,
        location: t.location,
      })),
    });
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const outcome = await this.http.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-findings-timestamp': String(timestamp),
        'x-findings-signature': signBody(secret, timestamp, body),
      },
      body,
      caller: 'reverification',
    });
    if (!outcome.ok) {
      this.logger.warn(`re-verification request refused: ${outcome.reason} (${outcome.message})`);
      return outcome.reason;
    }
    if (outcome.status < 200 || outcome.status > 299) return `http_${outcome.status}`;
    return undefined;
  }
}
