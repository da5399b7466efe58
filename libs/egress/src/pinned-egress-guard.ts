import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import {
  admitAddresses,
  checkUrlForm,
  DEFAULT_EGRESS_LABELS,
  describeHost as describe,
  Refused,
  type CheckedUrl,
  type EgressLabels,
} from './egress-check';
import { hostKey } from './egress-host';
import type {
  EgressContext,
  EgressDenials,
  EgressGuard,
  EgressOutcome,
  EgressRefusal,
  EgressRequest,
  EgressResponse,
} from './egress-guard';
import type { EgressPolicy } from './egress-policy';
import { systemResolver, type EgressResolver } from './egress-resolver';
import { parseIpAddress, type IpAddress } from './ip-address';
import { defaultPort } from './permitted-hosts';

export interface PinnedEgressGuardOptions {
  policy: EgressPolicy;
  /** Production: the system resolver (getaddrinfo). Tests: a DNS server on loopback. */
  resolver?: EgressResolver;
  /** Counts refusals by reason (the runner: `plugin_runner_egress_denials_total`). */
  denials?: EgressDenials;
  logger?: { warn(fields: object, message: string): void };
  /**
   * Extra trusted CA certificates (PEM) added to Node's bundled roots. Production trusts
   * the bundled roots plus NODE_EXTRA_CA_CERTS; tests pass their own CA here.
   */
  extraCa?: readonly string[];
  /** How refusals and the refusal log line name the caller and the settings. */
  labels?: Partial<EgressLabels>;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers the guard owns or that would change how the connection is used. */
const GUARD_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'http2-settings',
]);
/** Dropped when a redirect leaves the origin (as browsers drop Authorization). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie']);
const MAX_REQUEST_HEADER_BYTES = 64 * 1024;
const MAX_RESPONSE_HEADER_BYTES = 32 * 1024;

/** A URL that passed every check, with the addresses it may be dialled at. */
interface CheckedTarget extends CheckedUrl {
  addresses: IpAddress[];
}

interface Exchange {
  method: string;
  headers: Array<readonly [string, string]>;
  body?: Uint8Array;
}

type Attempt = { kind: 'answer'; answer: EgressResponse } | { kind: 'unreachable'; error: Error };

/**
 * The egress guard: checks the URL, the permitted host, the resolved addresses, then dials
 * exactly a checked address (the connection is opened to the IP, TLS verifies the host name)
 * and re-checks every redirect hop. Refusals are counted and logged without URL paths.
 */
export class PinnedEgressGuard implements EgressGuard {
  private readonly policy: EgressPolicy;
  private readonly resolver: EgressResolver;
  private readonly ca?: string[];
  private readonly labels: EgressLabels;

  constructor(private readonly options: PinnedEgressGuardOptions) {
    this.policy = options.policy;
    this.resolver = options.resolver ?? systemResolver;
    this.ca = options.extraCa ? [...rootCertificates, ...options.extraCa] : undefined;
    this.labels = { ...DEFAULT_EGRESS_LABELS, ...options.labels };
  }

  async request(context: EgressContext, request: EgressRequest): Promise<EgressOutcome> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.policy.timeoutMs);
    try {
      return await this.run(context, request, abort.signal);
    } catch (error) {
      const refused = abort.signal.aborted
        ? new Refused('timeout', `no complete answer within ${this.policy.timeoutMs} ms`)
        : error instanceof Refused
          ? error
          : new Refused('connect_failed', errorText(error));
      return this.refuse(context, request, refused);
    } finally {
      clearTimeout(timer);
    }
  }

  private async run(
    context: EgressContext,
    request: EgressRequest,
    signal: AbortSignal,
  ): Promise<EgressResponse> {
    let exchange = checkExchange(request, this.policy.maxRequestBytes, this.labels);
    let target = await this.check(context, request.url, signal);
    for (let hop = 0; ; hop += 1) {
      const answer = await this.dial(target, exchange, signal);
      const location = answer.headers.find(([name]) => name === 'location')?.[1];
      if (
        !REDIRECTS.has(answer.status) ||
        location === undefined ||
        this.policy.maxRedirects === 0
      ) {
        return { ...answer, redirects: hop };
      }
      if (hop >= this.policy.maxRedirects) {
        throw new Refused('too_many_redirects', `more than ${this.policy.maxRedirects} redirects`);
      }
      let next: URL;
      try {
        next = new URL(location, target.url);
      } catch {
        throw new Refused('redirect_refused', 'redirect to an invalid URL', 'invalid_url');
      }
      try {
        const nextTarget = await this.check(context, next.href, signal);
        exchange = redirectedExchange(exchange, answer.status, target, nextTarget);
        target = nextTarget;
      } catch (error) {
        if (!(error instanceof Refused) || signal.aborted) throw error;
        throw new Refused(
          'redirect_refused',
          `redirect hop ${hop + 1}: ${error.message}`,
          error.reason,
        );
      }
    }
  }

  /** Every check of one URL, up to the addresses that may be dialled. */
  private async check(
    context: EgressContext,
    raw: string,
    signal: AbortSignal,
  ): Promise<CheckedTarget> {
    const form = checkUrlForm(this.policy, context, raw, this.labels);
    const addresses =
      form.host.kind === 'ip' ? [form.host.address] : await this.resolve(form.host.name, signal);
    return { ...form, addresses: admitAddresses(this.policy, form, addresses, this.labels) };
  }

  private async resolve(name: string, signal: AbortSignal): Promise<IpAddress[]> {
    let answers: string[];
    try {
      answers = await abortable(this.resolver.resolve(name), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new Refused('dns_failed', `${name} did not resolve (${errorText(error)})`);
    }
    const addresses = answers.map((answer) => parseIpAddress(answer));
    if (addresses.length === 0 || addresses.some((a) => a === undefined)) {
      throw new Refused('dns_failed', `${name} resolved to no usable address`);
    }
    return addresses as IpAddress[];
  }

  /** Tries the checked addresses in order; the next one only when a connect never happened. */
  private async dial(
    target: CheckedTarget,
    exchange: Exchange,
    signal: AbortSignal,
  ): Promise<EgressResponse> {
    let last: Error | undefined;
    for (const address of target.addresses) {
      const attempt = await this.attempt(target, address, exchange, signal);
      if (attempt.kind === 'answer') return attempt.answer;
      last = attempt.error;
    }
    throw new Refused(
      'connect_failed',
      `could not connect to ${describe(target.host, target.port)}: ${errorText(last)}`,
    );
  }

  /** One HTTP exchange over a connection opened to `address` and nothing else. */
  private attempt(
    target: CheckedTarget,
    address: IpAddress,
    exchange: Exchange,
    signal: AbortSignal,
  ): Promise<Attempt> {
    return new Promise<Attempt>((resolve, reject) => {
      const hostHeader = hostHeaderOf(target);
      const lists: Record<string, string[]> = {};
      for (const [name, value] of exchange.headers) (lists[name.toLowerCase()] ??= []).push(value);
      const headers: Record<string, string | string[]> = { ...lists, host: hostHeader };
      if (exchange.body !== undefined) headers['content-length'] = String(exchange.body.length);
      const common: http.RequestOptions = {
        host: address.text,
        family: address.family,
        port: target.port,
        method: exchange.method,
        path: `${target.url.pathname}${target.url.search}`,
        headers,
        setHost: false,
        agent: false,
        signal,
        lookup: refuseLookup,
        maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
        insecureHTTPParser: false,
      };
      const req =
        target.protocol === 'https:'
          ? https.request({
              ...common,
              // No SNI for an IP literal (RFC 6066); the certificate is then checked for the IP.
              servername: target.host.kind === 'name' ? target.host.name : '',
              ca: this.ca,
              rejectUnauthorized: true,
            })
          : http.request(common);
      let connected = false;
      let secured = target.protocol === 'http:';
      let pinError: Refused | undefined;
      const verifyPeer = (socket: Socket) => {
        connected = true;
        const remote = socket.remoteAddress ? parseIpAddress(socket.remoteAddress) : undefined;
        if (remote?.text !== address.text) {
          pinError = new Refused(
            'address_not_allowed',
            'connected to an address other than the checked one',
          );
          socket.destroy(pinError);
        }
      };
      req.once('socket', (socket: Socket) => {
        if (socket.connecting || socket.remoteAddress === undefined) {
          socket.once('connect', () => verifyPeer(socket));
        } else {
          verifyPeer(socket);
        }
        socket.once('secureConnect', () => (secured = true));
      });
      req.on('error', (error) => {
        if (pinError) reject(pinError);
        else if (signal.aborted) reject(error);
        else if (!connected) resolve({ kind: 'unreachable', error });
        else if (!secured)
          reject(
            new Refused(
              'tls_failed',
              `TLS with ${describe(target.host, target.port)} failed: ${errorText(error)}`,
            ),
          );
        else
          reject(
            new Refused(
              'connect_failed',
              `connection to ${describe(target.host, target.port)} failed: ${errorText(error)}`,
            ),
          );
      });
      req.once('response', (res) => {
        this.readAnswer(target, exchange.method, res).then(
          (answer) => resolve({ kind: 'answer', answer }),
          (error: unknown) => {
            req.destroy();
            reject(error);
          },
        );
      });
      req.end(exchange.body);
    });
  }

  private async readAnswer(
    target: CheckedTarget,
    method: string,
    res: http.IncomingMessage,
  ): Promise<EgressResponse> {
    const status = res.statusCode ?? 0;
    const headers: Array<[string, string]> = [];
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
      headers.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
    }
    const redirect =
      REDIRECTS.has(status) &&
      this.policy.maxRedirects > 0 &&
      headers.some(([n]) => n === 'location');
    const cap = this.policy.maxResponseBytes;
    const declared = Number(res.headers['content-length']);
    if (!redirect && Number.isFinite(declared) && declared > cap) {
      res.destroy();
      throw new Refused(
        'body_too_large',
        `response body of ${declared} bytes exceeds ${cap} bytes`,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    if (!redirect && method !== 'HEAD') {
      try {
        for await (const chunk of res as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > cap) {
            res.destroy();
            throw new Refused('body_too_large', `response body exceeds ${cap} bytes`);
          }
          chunks.push(chunk);
        }
      } catch (error) {
        if (error instanceof Refused) throw error;
        throw new Refused(
          'connect_failed',
          `response from ${describe(target.host, target.port)} cut: ${errorText(error)}`,
        );
      }
    }
    res.destroy();
    return {
      ok: true,
      status,
      headers,
      body: new Uint8Array(Buffer.concat(chunks)),
      url: target.url.href,
      redirects: 0,
    };
  }

  private refuse(context: EgressContext, request: EgressRequest, refused: Refused): EgressRefusal {
    this.options.denials?.count(refused.reason);
    this.options.logger?.warn(
      {
        [this.labels.callerField]: context.caller,
        reason: refused.reason,
        cause: refused.hopReason,
        method: request.method,
        host: hostForLog(request.url),
      },
      `${this.labels.subject} refused: ${refused.message}`,
    );
    return {
      ok: false,
      reason: refused.reason,
      ...(refused.hopReason ? { cause: refused.hopReason } : {}),
      message: refused.message,
    };
  }
}

/** Method, headers and body as the caller sent them, refused when the guard cannot send them as they are. */
function checkExchange(
  request: EgressRequest,
  maxRequestBytes: number,
  labels: EgressLabels,
): Exchange {
  if (!METHODS.has(request.method)) {
    throw new Refused(
      'method_not_allowed',
      `method ${String(request.method).slice(0, 20)} is not allowed`,
    );
  }
  let headerBytes = 0;
  for (const [name, value] of request.headers ?? []) {
    const lower = String(name).toLowerCase();
    try {
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value);
    } catch {
      throw new Refused('header_not_allowed', 'a header name or value is invalid');
    }
    if (GUARD_HEADERS.has(lower) || lower.startsWith('proxy-')) {
      throw new Refused(
        'header_not_allowed',
        `header ${lower} is set by the guard, not ${labels.callerNoun}`,
      );
    }
    headerBytes += name.length + value.length + 4;
  }
  if (headerBytes > MAX_REQUEST_HEADER_BYTES) {
    throw new Refused(
      'header_not_allowed',
      `request headers exceed ${MAX_REQUEST_HEADER_BYTES} bytes`,
    );
  }
  if (request.body !== undefined && request.body.length > maxRequestBytes) {
    throw new Refused(
      'request_too_large',
      `request body of ${request.body.length} bytes exceeds ${maxRequestBytes} bytes`,
    );
  }
  return { method: request.method, headers: [...(request.headers ?? [])], body: request.body };
}

/**
 * The next hop's method, headers and body, as fetch does it: 303 (and 301/302 after POST)
 * become GET without a body; 307/308 repeat the request. Credentials stay on the origin.
 */
function redirectedExchange(
  exchange: Exchange,
  status: number,
  from: CheckedTarget,
  to: CheckedTarget,
): Exchange {
  const toGet =
    status === 303
      ? exchange.method !== 'HEAD'
      : (status === 301 || status === 302) && exchange.method === 'POST';
  let headers = exchange.headers;
  if (from.url.origin !== to.url.origin) {
    headers = headers.filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()));
  }
  if (!toGet) return { ...exchange, headers };
  return {
    method: 'GET',
    headers: headers.filter(([name]) => !name.toLowerCase().startsWith('content-')),
  };
}

function hostHeaderOf(target: CheckedTarget): string {
  const host =
    target.host.kind === 'ip' && target.host.address.family === 6
      ? `[${hostKey(target.host)}]`
      : hostKey(target.host);
  return target.port === defaultPort(target.protocol) ? host : `${host}:${target.port}`;
}

/** The host of a URL for logs (never the path or query: they may carry tokens). */
function hostForLog(raw: string): string | undefined {
  try {
    return new URL(raw).host;
  } catch {
    return undefined;
  }
}

/** The connection is opened to an IP literal; any name lookup here is a bug and is refused. */
function refuseLookup(
  hostname: string,
  _options: unknown,
  callback: (error: NodeJS.ErrnoException | null, address: string, family: number) => void,
): void {
  callback(
    Object.assign(new Error(`egress guard: unexpected lookup of ${hostname}`), { code: 'EPINNED' }),
    '',
    0,
  );
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
