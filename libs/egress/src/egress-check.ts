import { addressAllowed, classifyAddress } from './address-classifier';
import { classifyHostName, hostKey, normaliseHost, type EgressHost } from './egress-host';
import {
  ANY_HOST,
  MAX_EGRESS_URL_LENGTH,
  type EgressContext,
  type EgressRefusal,
  type EgressRefusalReason,
} from './egress-guard';
import type { EgressPolicy } from './egress-policy';
import { rangeContains, unmapIpv4, type IpAddress } from './ip-address';
import { defaultPort, isPermitted, parsePermittedHost } from './permitted-hosts';

/** The words of refusals and of the refusal log line; each user names its own settings. */
export interface EgressLabels {
  /** Start of the refusal log line: `<subject> refused: <message>`. */
  subject: string;
  /** Log field carrying the context's caller. */
  callerField: string;
  /** How refusals speak of the caller (`is not a permitted host of <the caller>`). */
  callerNoun: string;
  /** The allowlist setting an `address_not_allowlisted` refusal names. */
  allowlist: string;
}

export const DEFAULT_EGRESS_LABELS: EgressLabels = {
  subject: 'egress',
  callerField: 'caller',
  callerNoun: 'the caller',
  allowlist: 'the egress allowlist',
};

/** A refusal raised inside the guard; the guard turns it into an EgressRefusal. */
export class Refused extends Error {
  constructor(
    readonly reason: EgressRefusalReason,
    message: string,
    readonly hopReason?: EgressRefusalReason,
  ) {
    super(message);
  }
}

/** A URL that passed every check that needs no DNS answer. */
export interface CheckedUrl {
  url: URL;
  protocol: 'https:' | 'http:';
  host: EgressHost;
  port: number;
}

/** The checks a URL passes before any DNS query: scheme, user-info, host, permitted host, name class. */
export function checkUrlForm(
  policy: EgressPolicy,
  context: EgressContext,
  raw: string,
  labels: EgressLabels,
): CheckedUrl {
  if (raw.length > MAX_EGRESS_URL_LENGTH) {
    throw new Refused('invalid_url', `the URL is longer than ${MAX_EGRESS_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Refused('invalid_url', 'not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw new Refused('scheme_not_allowed', `scheme ${url.protocol} is not allowed`);
  }
  const protocol = url.protocol;
  if (url.username !== '' || url.password !== '') {
    throw new Refused('invalid_url', 'user-info in the URL is not allowed');
  }
  const host = normaliseHost(url.hostname);
  if (!host) throw new Refused('invalid_url', 'the URL host cannot be dialled');
  const port = url.port === '' ? defaultPort(protocol) : Number(url.port);
  if (context.permittedHosts !== ANY_HOST) {
    const permitted = context.permittedHosts
      .map(parsePermittedHost)
      .filter((entry) => entry !== undefined);
    if (!isPermitted(permitted, hostKey(host), port)) {
      throw new Refused(
        'host_not_permitted',
        `${describeHost(host, port)} is not a permitted host of ${labels.callerNoun}`,
      );
    }
  }
  if (host.kind === 'name') {
    const nameClass = classifyHostName(host.name);
    if (nameClass === 'forbidden' || (nameClass === 'local' && !policy.allowLocalDial)) {
      throw new Refused(
        'host_forbidden',
        `${host.name} is a ${nameClass === 'forbidden' ? 'metadata' : 'local'} name`,
      );
    }
  }
  return { url, protocol, host, port };
}

/**
 * The addresses of a checked URL that may be dialled: every one must be allowed (one local or
 * forbidden address refuses the whole answer), then the allowlist, when set, filters them.
 */
export function admitAddresses(
  policy: EgressPolicy,
  target: CheckedUrl,
  addresses: readonly IpAddress[],
  labels: EgressLabels,
): IpAddress[] {
  for (const address of addresses) {
    const klass = classifyAddress(address);
    if (!addressAllowed(klass, policy.allowLocalDial)) {
      throw new Refused(
        'address_not_allowed',
        `${describeHost(target.host, target.port)} resolves to a ${klass.category} address`,
      );
    }
  }
  const dialable =
    policy.allowlist.length === 0
      ? [...addresses]
      : addresses.filter((address) => inAllowlist(policy, address));
  if (dialable.length === 0) {
    throw new Refused(
      'address_not_allowlisted',
      `no address of ${describeHost(target.host, target.port)} is in ${labels.allowlist}`,
    );
  }
  return dialable;
}

/** The outcome of `checkEgressUrl`: the parsed URL, or the refusal the guard would give. */
export type EgressUrlCheck = { ok: true; url: URL } | EgressRefusal;

/**
 * The guard's checks of a URL without DNS and without a connection, for a URL an administrator
 * saves: scheme, user-info, host form, permitted host, host-name class and, for an IP literal,
 * its address and the allowlist. A name's addresses are checked only when it is called.
 */
export function checkEgressUrl(
  policy: EgressPolicy,
  context: EgressContext,
  url: string,
  labels: Partial<EgressLabels> = {},
): EgressUrlCheck {
  const words = { ...DEFAULT_EGRESS_LABELS, ...labels };
  try {
    const checked = checkUrlForm(policy, context, url, words);
    if (checked.host.kind === 'ip') admitAddresses(policy, checked, [checked.host.address], words);
    return { ok: true, url: checked.url };
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    return { ok: false, reason: error.reason, message: error.message };
  }
}

/** `host:port` for messages, IPv6 in brackets. */
export function describeHost(host: EgressHost, port: number): string {
  const text =
    host.kind === 'ip' && host.address.family === 6 ? `[${hostKey(host)}]` : hostKey(host);
  return `${text}:${port}`;
}

function inAllowlist(policy: EgressPolicy, address: IpAddress): boolean {
  const v4 = unmapIpv4(address);
  return policy.allowlist.some(
    (range) => rangeContains(range, address) || (v4 !== undefined && rangeContains(range, v4)),
  );
}
