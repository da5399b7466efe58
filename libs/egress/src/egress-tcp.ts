import { checkEgressUrl, DEFAULT_EGRESS_LABELS, Refused, type EgressLabels } from './egress-check';
import type { EgressContext, EgressRefusal } from './egress-guard';
import { hostKey, normaliseHost, type EgressHost } from './egress-host';
import type { EgressPolicy } from './egress-policy';
import { systemResolver, type EgressResolver } from './egress-resolver';
import { checkTarget } from './egress-target';
import { errorText } from './error-text';

/**
 * A raw TCP (or TLS) target that passed the guard's checks: the host as given (for TLS name
 * verification and SNI), the port, and the checked IP literals the socket must be opened to.
 */
export interface CheckedTcpTarget {
  ok: true;
  host: EgressHost;
  /** The name to verify the peer's certificate for (SNI); undefined for an IP literal. */
  servername: string | undefined;
  port: number;
  /** Checked addresses, in order; dial one of these and nothing else (no second lookup). */
  addresses: string[];
}

export type TcpTargetCheck = CheckedTcpTarget | EgressRefusal;

export interface TcpTargetOptions {
  resolver?: EgressResolver;
  labels?: Partial<EgressLabels>;
  /** Deadline of the resolution; aborting answers `timeout`. */
  signal?: AbortSignal;
}

const HOST_CHARS = /^[A-Za-z0-9._\-[\]:\u0080-\uffff]+$/u;

/**
 * The guard's checks for a connection that is not HTTP (an LDAP directory, say): the same
 * host form, permitted-host, host-name class, one DNS resolution, address classes and
 * allowlist as an HTTP call under the same policy (`allowHttp` and the body caps do not
 * apply). The caller then opens its socket to one of `addresses` (never to the name: a
 * second lookup could be answered differently) and verifies TLS for `servername`.
 * Never throws for anything the caller's input controls.
 */
export async function checkTcpTarget(
  policy: EgressPolicy,
  context: EgressContext,
  target: { host: string; port: number },
  options: TcpTargetOptions = {},
): Promise<TcpTargetCheck> {
  const labels = { ...DEFAULT_EGRESS_LABELS, ...options.labels };
  const signal = options.signal ?? new AbortController().signal;
  try {
    const url = tcpUrl(target);
    const checked = await checkTarget(
      policy,
      options.resolver ?? systemResolver,
      labels,
      context,
      url,
      signal,
    );
    return {
      ok: true,
      host: checked.host,
      servername: checked.host.kind === 'name' ? checked.host.name : undefined,
      port: checked.port,
      addresses: checked.addresses.map((address) => address.text),
    };
  } catch (error) {
    if (signal.aborted) return { ok: false, reason: 'timeout', message: 'resolution timed out' };
    if (error instanceof Refused) {
      return { ok: false, reason: error.reason, message: error.message };
    }
    return { ok: false, reason: 'connect_failed', message: errorText(error) };
  }
}

/**
 * The checks of a TCP target that need no DNS, for a setting an administrator saves: host
 * form and port, permitted host, host-name class and, for an IP literal, its address and the
 * allowlist. A name's addresses are checked when it is dialled (`checkTcpTarget`).
 */
export function checkTcpTargetForm(
  policy: EgressPolicy,
  context: EgressContext,
  target: { host: string; port: number },
  labels: Partial<EgressLabels> = {},
): { ok: true } | EgressRefusal {
  let url: string;
  try {
    url = tcpUrl(target);
  } catch (error) {
    return { ok: false, reason: 'invalid_url', message: errorText(error) };
  }
  const checked = checkEgressUrl({ ...policy, allowHttp: false }, context, url, labels);
  return checked.ok ? { ok: true } : checked;
}

function hostOf(target: { host: string; port: number }): EgressHost | undefined {
  if (!HOST_CHARS.test(target.host)) return undefined;
  const host = normaliseHost(target.host);
  return host && Number.isInteger(target.port) && target.port > 0 && target.port < 65536
    ? host
    : undefined;
}

/**
 * The target as the URL the HTTP checks read (the scheme only selects the default port, which
 * is never used: the port is always explicit).
 */
function tcpUrl(target: { host: string; port: number }): string {
  const host = hostOf(target);
  if (!host) throw new Refused('invalid_url', 'the host or port cannot be dialled');
  const text =
    host.kind === 'ip' && host.address.family === 6 ? `[${hostKey(host)}]` : hostKey(host);
  return `https://${text}:${target.port}/`;
}
