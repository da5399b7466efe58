import { PkiError } from '../pki.errors';
import { estOperationUrl, type EstIssuerConfig, type EstOperation } from './est-config';
import { headerOf, type EstHttp, type EstHttpAnswer } from './est-http';
import { decodeBase64Body, encodeBase64Body, readCertsOnlyPkcs7 } from './pkcs7-certs';

/** A successful exchange: the answer with its status. */
export type EstReply = Extract<EstHttpAnswer, { ok: true }>;

/**
 * The three RFC 7030 operations over an injected `EstHttp`. Every failure is a typed
 * PkiError: the guard refused or the server was unreachable (`est_unreachable`, the guard's
 * reason in `details.reason`), 401/403 (`est_unauthorized`), another status (`est_refused`),
 * 202 (`est_pending_unsupported`), an unusable body (`est_answer_invalid`).
 */
export class EstClient {
  constructor(
    private readonly config: EstIssuerConfig,
    private readonly http: EstHttp,
  ) {}

  /** `GET /cacerts`: the CA certificates (DER), as the server lists them. */
  async caCertificates(): Promise<Buffer[]> {
    const reply = await this.call('cacerts', undefined);
    return readCertsOnlyPkcs7(decodeBase64Body(reply.body));
  }

  /** `POST /simpleenroll` or `/simplereenroll`: the certificates of the answer (DER). */
  async enroll(operation: 'simpleenroll' | 'simplereenroll', csrDer: Buffer): Promise<Buffer[]> {
    const reply = await this.call(operation, csrDer);
    return readCertsOnlyPkcs7(decodeBase64Body(reply.body));
  }

  /**
   * One call; answers other than 200 become PkiErrors. `body` undefined: GET. Credentials
   * (basic) are sent on every call: some servers protect `/cacerts` too.
   */
  async call(operation: EstOperation, body: Buffer | undefined): Promise<EstReply> {
    const answer = await this.send(operation, body);
    if (!answer.ok) throw unreachable(answer.reason, answer.message);
    return expectSuccess(answer);
  }

  /** The raw exchange (connection tests read the status themselves). */
  send(operation: EstOperation, body: Buffer | undefined): Promise<EstHttpAnswer> {
    const headers: [string, string][] = [];
    if (this.config.auth.mode === 'basic') {
      const { username, password } = this.config.auth;
      const token = Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
      headers.push(['authorization', `Basic ${token}`]);
    }
    if (body === undefined) {
      headers.push(['accept', 'application/pkcs7-mime']);
      return this.http.request(estOperationUrl(this.config, operation), { method: 'GET', headers });
    }
    headers.push(['content-type', 'application/pkcs10'], ['content-transfer-encoding', 'base64']);
    return this.http.request(estOperationUrl(this.config, operation), {
      method: 'POST',
      headers,
      body: encodeBase64Body(body),
    });
  }
}

export function unreachable(reason: string, message: string): PkiError {
  return new PkiError('est_unreachable', `EST server unreachable (${reason}): ${message}`, {
    reason,
  });
}

/** 200 with a pkcs7-mime body, or a PkiError naming what the server said. */
export function expectSuccess(answer: EstReply): EstReply {
  const { status } = answer;
  if (status === 401 || status === 403) {
    throw new PkiError('est_unauthorized', `EST server refused the credentials (HTTP ${status})`, {
      status,
    });
  }
  if (status === 202) {
    const retryAfter = headerOf(answer.headers, 'retry-after') ?? 'not given';
    throw new PkiError(
      'est_pending_unsupported',
      `EST server deferred the enrollment (HTTP 202, Retry-After ${retryAfter.slice(0, 32)}); ` +
        'this service does not poll EST servers: approve the request at the CA, then approve again here',
      { status },
    );
  }
  if (status !== 200) {
    throw new PkiError('est_refused', `EST server answered HTTP ${status}`, { status });
  }
  const type = (headerOf(answer.headers, 'content-type') ?? '').toLowerCase();
  if (!type.startsWith('application/pkcs7-mime')) {
    throw new PkiError('est_answer_invalid', 'EST answer is not application/pkcs7-mime');
  }
  return answer;
}
