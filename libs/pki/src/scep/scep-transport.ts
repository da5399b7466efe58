import {
  ANY_HOST,
  DEFAULT_EGRESS_POLICY,
  guardedRequest,
  type EgressPolicy,
  type GuardWiring,
} from '@platform/egress';
import { PkiError } from '../pki.errors';

/**
 * How the SCEP client reaches the CA: every call through the platform's egress guard
 * (`guardedRequest`), an address entered by an administrator (`ANY_HOST`) under the service's
 * policy, with the issuer's own timeout and answer cap on top.
 */
export interface ScepEgress {
  /** The service's outbound policy (scheme, local addresses, allowlist). */
  readonly policy: EgressPolicy;
  readonly wiring?: GuardWiring;
}

export interface ScepAnswer {
  readonly contentType: string;
  readonly body: Buffer;
}

/** Default cap of a SCEP answer (certificates and PKCS#7 are a few KiB). */
export const SCEP_MAX_ANSWER_BYTES = 256 * 1024;
export const SCEP_DEFAULT_TIMEOUT_MS = 15_000;

export class ScepTransport {
  private readonly policy: EgressPolicy;

  constructor(
    private readonly url: string,
    private readonly egress: ScepEgress = { policy: DEFAULT_EGRESS_POLICY },
    timeoutMs = SCEP_DEFAULT_TIMEOUT_MS,
    maxAnswerBytes = SCEP_MAX_ANSWER_BYTES,
  ) {
    this.policy = {
      ...egress.policy,
      timeoutMs: Math.min(egress.policy.timeoutMs, timeoutMs),
      maxResponseBytes: Math.min(egress.policy.maxResponseBytes, maxAnswerBytes),
    };
  }

  /** `GET <url>?operation=<op>[&message=...]`. */
  get(operation: string, message?: string): Promise<ScepAnswer> {
    const target = new URL(this.url);
    target.searchParams.set('operation', operation);
    if (message !== undefined) target.searchParams.set('message', message);
    return this.send('GET', target.toString(), operation);
  }

  /** `POST <url>?operation=PKIOperation` with the DER pkiMessage. */
  post(operation: string, body: Buffer): Promise<ScepAnswer> {
    const target = new URL(this.url);
    target.searchParams.set('operation', operation);
    return this.send('POST', target.toString(), operation, body);
  }

  private async send(
    method: 'GET' | 'POST',
    url: string,
    operation: string,
    body?: Buffer,
  ): Promise<ScepAnswer> {
    const outcome = await guardedRequest(
      this.policy,
      { caller: 'certificate-service scep', permittedHosts: ANY_HOST },
      {
        method,
        url,
        headers: body ? [['content-type', 'application/x-pki-message']] : [],
        ...(body ? { body } : {}),
      },
      this.egress.wiring,
    );
    if (!outcome.ok) {
      throw new PkiError(
        'scep_transport_failed',
        `SCEP ${operation}: the call was refused or failed (${outcome.reason}): ${outcome.message}`,
      );
    }
    if (outcome.status !== 200) {
      throw new PkiError(
        'scep_transport_failed',
        `SCEP ${operation}: the server answered HTTP ${outcome.status}`,
      );
    }
    const contentType = outcome.headers.find(([name]) => name === 'content-type')?.[1] ?? '';
    return {
      contentType: contentType.split(';')[0].trim().toLowerCase(),
      body: Buffer.from(outcome.body),
    };
  }
}
