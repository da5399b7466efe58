import { ApiError, NetworkError } from './api-errors';
import type {
  AgentCertificate,
  CheckinAnswer,
  CrlAnswer,
  EnrollAnswer,
  EnrollBody,
  NonceAnswer,
  PurposeRequestAnswer,
  PurposesAnswer,
  UserEnrollBody,
  RequestStatusAnswer,
} from './api-types';

const TIMEOUT_MS = 30_000;

/** The certificate service's enroll and agent routes (docs/certificate-service/enrollment.md). */
export class CertsvcClient {
  private readonly base: string;
  /** The `Date` header of the last answer: the service's clock, for the skew check. */
  lastServerDate: Date | null = null;

  constructor(server: string) {
    this.base = server.replace(/\/+$/, '');
  }

  /** A one-use enroll nonce; with `tpm` also the credential-activation challenge, if any. */
  nonce(body: Record<string, unknown> = {}): Promise<NonceAnswer> {
    return this.call('POST', '/api/v1/enroll/nonce', body) as Promise<NonceAnswer>;
  }

  /**
   * `POST /enroll`; with `sign`, the exact body bytes are signed and the signature sent as
   * `X-Enroll-Source-Signature` (source-auth, enrollment.md).
   */
  async enroll(body: EnrollBody, sign?: (bytes: Buffer) => Promise<Buffer>): Promise<EnrollAnswer> {
    if (!sign) return this.call('POST', '/api/v1/enroll', body) as Promise<EnrollAnswer>;
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    const headers = {
      'content-type': 'application/json',
      'x-enroll-source-signature': (await sign(bytes)).toString('base64'),
    };
    return this.answer(
      await this.fetch('POST', '/api/v1/enroll', headers, bytes),
    ) as Promise<EnrollAnswer>;
  }

  /** `POST /enroll/source-nonce`: the one-use nonce a signed enroll body carries. */
  sourceNonce(): Promise<{ nonce: string }> {
    return this.call('POST', '/api/v1/enroll/source-nonce', {}) as Promise<{ nonce: string }>;
  }

  /** `POST /enroll/token-recover`: a new enrollment token for a proof with a pinned key. */
  tokenRecover(body: {
    serial: string;
    nonce: string;
    key: 'continuity' | 'ak';
    signature: string;
  }): Promise<{ serial: string; enrollment_token: string }> {
    return this.call('POST', '/api/v1/enroll/token-recover', body) as Promise<{
      serial: string;
      enrollment_token: string;
    }>;
  }

  /** `POST /enroll/user`: a request for a person on this device (201, pending). */
  enrollUser(body: UserEnrollBody): Promise<EnrollAnswer> {
    return this.call('POST', '/api/v1/enroll/user', body) as Promise<EnrollAnswer>;
  }

  /** The outcome of an issuance directive, with this device's agent secret. */
  async reportDirective(
    id: string,
    secret: string,
    outcome: 'done' | 'failed',
    message: string,
  ): Promise<void> {
    const path = `/api/v1/enroll/issuance-directives/${encodeURIComponent(id)}/report`;
    await this.answer(
      await this.fetch('POST', path, { 'x-agent-secret': secret }, { outcome, message }),
    );
  }

  /** What the device may enroll for, and the network profiles to install. */
  purposes(serial: string, enrollmentToken: string): Promise<PurposesAnswer> {
    return this.call('POST', '/api/v1/enroll/purposes', {
      serial,
      enrollment_token: enrollmentToken,
    }) as Promise<PurposesAnswer>;
  }

  /** `POST /enroll/purpose-request`: the device asks for a purpose (idempotent while pending). */
  purposeRequest(
    serial: string,
    enrollmentToken: string,
    purpose: string,
    note?: string,
  ): Promise<PurposeRequestAnswer> {
    return this.call('POST', '/api/v1/enroll/purpose-request', {
      serial,
      enrollment_token: enrollmentToken,
      purpose,
      ...(note ? { note } : {}),
    }) as Promise<PurposeRequestAnswer>;
  }

  /** `POST /enroll/ssh`: a certificate request for an OpenSSH public key (201, pending). */
  enrollSsh(
    serial: string,
    enrollmentToken: string,
    publicKey: string,
    agentVersion: string,
  ): Promise<EnrollAnswer> {
    return this.call('POST', '/api/v1/enroll/ssh', {
      serial,
      enrollment_token: enrollmentToken,
      public_key: publicKey,
      agent_version: agentVersion,
    }) as Promise<EnrollAnswer>;
  }

  /** `POST /requests/{id}/logs`: a gzip of the agent's logs. */
  async uploadLogs(requestId: string, secret: string, gzip: Buffer): Promise<{ id: string }> {
    const res = await this.fetch(
      'POST',
      this.agentPath(requestId, 'logs'),
      { 'x-agent-secret': secret, 'content-type': 'application/gzip' },
      gzip,
    );
    return (await this.answer(res)) as { id: string };
  }

  /** The CRLs of the issuing and root CA (404 `crl_unavailable` without one). */
  crls(): Promise<CrlAnswer> {
    return this.call('POST', '/api/v1/enroll/crl', {}) as Promise<CrlAnswer>;
  }

  status(requestId: string, secret: string): Promise<RequestStatusAnswer> {
    return this.agent('GET', requestId, 'status', secret) as Promise<RequestStatusAnswer>;
  }

  async bundleVersion(requestId: string, secret: string): Promise<string> {
    const answer = (await this.agent('GET', requestId, 'bundle-version', secret)) as {
      bundle_version: string;
    };
    return answer.bundle_version;
  }

  /** The certificate; null when `etag` still names it (304). */
  async certificate(
    requestId: string,
    secret: string,
    etag?: string,
  ): Promise<{ body: AgentCertificate; etag: string } | null> {
    const headers: Record<string, string> = { 'x-agent-secret': secret };
    if (etag) headers['if-none-match'] = etag;
    const res = await this.fetch('GET', this.agentPath(requestId, 'certificate'), headers);
    if (res.status === 304) return null;
    const body = (await this.answer(res)) as AgentCertificate;
    return { body, etag: res.headers.get('etag') ?? `"${body.bundle_version}"` };
  }

  checkin(requestId: string, secret: string, agentVersion: string): Promise<CheckinAnswer> {
    return this.agent('POST', requestId, 'checkin', secret, {
      agent_version: agentVersion,
    }) as Promise<CheckinAnswer>;
  }

  private agentPath(requestId: string, route: string): string {
    return `/api/v1/requests/${encodeURIComponent(requestId)}/${route}`;
  }

  private async agent(
    method: string,
    requestId: string,
    route: string,
    secret: string,
    body?: unknown,
  ): Promise<unknown> {
    const headers = { 'x-agent-secret': secret };
    return this.answer(await this.fetch(method, this.agentPath(requestId, route), headers, body));
  }

  private async call(method: string, path: string, body: unknown): Promise<unknown> {
    return this.answer(await this.fetch(method, path, {}, body));
  }

  private async fetch(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Response> {
    const init: RequestInit = {
      method,
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    };
    if (Buffer.isBuffer(body)) {
      init.body = body;
    } else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    try {
      const res = await fetch(`${this.base}${path}`, init);
      const date = Date.parse(res.headers.get('date') ?? '');
      if (Number.isFinite(date)) this.lastServerDate = new Date(date);
      return res;
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const detail = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new NetworkError(`${method} ${this.base}${path} failed: ${detail}`);
    }
  }

  private async answer(res: Response): Promise<unknown> {
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (res.ok) return body;
    const envelope = (body ?? {}) as { code?: unknown; message?: unknown };
    const retryAfter = Number(res.headers.get('retry-after'));
    throw new ApiError(
      res.status,
      typeof envelope.code === 'string' ? envelope.code : `http_${res.status}`,
      typeof envelope.message === 'string' ? envelope.message : `HTTP ${res.status}`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
}
