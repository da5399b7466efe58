import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import { describeHost as describe, Refused } from './egress-check';
import type { Exchange } from './egress-exchange';
import type { EgressResponse } from './egress-guard';
import { hostKey } from './egress-host';
import type { EgressPolicy } from './egress-policy';
import { readResponse } from './egress-response';
import type { CheckedTarget } from './egress-target';
import { errorText } from './error-text';
import { parseIpAddress, type IpAddress } from './ip-address';
import { defaultPort } from './permitted-hosts';

const MAX_RESPONSE_HEADER_BYTES = 32 * 1024;

/** What a pinned connection needs besides the target: trust roots and the answer's caps. */
export interface PinnedTransport {
  /** Trusted CA certificates (PEM); undefined: Node's defaults. */
  ca?: string[];
  /** Client certificate and key (PEM) presented when the server asks (TLS client auth). */
  clientTls?: { cert: string; key: string };
  policy: Pick<EgressPolicy, 'maxResponseBytes' | 'maxRedirects'>;
}

type Attempt = { kind: 'answer'; answer: EgressResponse } | { kind: 'unreachable'; error: Error };

/** Tries the checked addresses in order; the next one only when a connect never happened. */
export async function dialPinned(
  target: CheckedTarget,
  exchange: Exchange,
  signal: AbortSignal,
  transport: PinnedTransport,
): Promise<EgressResponse> {
  let last: Error | undefined;
  for (const address of target.addresses) {
    const attempt = await attemptAt(target, address, exchange, signal, transport);
    if (attempt.kind === 'answer') return attempt.answer;
    last = attempt.error;
  }
  throw new Refused(
    'connect_failed',
    `could not connect to ${describe(target.host, target.port)}: ${errorText(last)}`,
  );
}

/** One HTTP exchange over a connection opened to `address` and nothing else. */
function attemptAt(
  target: CheckedTarget,
  address: IpAddress,
  exchange: Exchange,
  signal: AbortSignal,
  transport: PinnedTransport,
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
            ca: transport.ca,
            ...(transport.clientTls
              ? { cert: transport.clientTls.cert, key: transport.clientTls.key }
              : {}),
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
      readResponse(target, exchange.method, res, transport.policy).then(
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

function hostHeaderOf(target: CheckedTarget): string {
  const host =
    target.host.kind === 'ip' && target.host.address.family === 6
      ? `[${hostKey(target.host)}]`
      : hostKey(target.host);
  return target.port === defaultPort(target.protocol) ? host : `${host}:${target.port}`;
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
