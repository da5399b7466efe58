import { normalizeHostName, type HostNameProblem } from './host-name';
import { IPV4_MAPPED_END, IPV4_MAPPED_START, parseIpv4, parseIpv6 } from './ip-text';

/**
 * One target a scanner asks about (`POST .../scope/filter`): an IP address (v4, v6, `[v6]`),
 * a host name (Unicode or punycode), either with a `:port`, or a URL (`scheme://host...`:
 * its host is checked, the port and path are not). An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`) is checked as the IPv4 address. Blocks and ranges are not targets.
 */
export type ParsedTarget =
  | { kind: 'ipv4'; value: number }
  | { kind: 'ipv6'; value: bigint }
  | { kind: 'host'; name: string };

/** Why a target is invalid (the `reason` of the filter's answer). */
export const TARGET_REASONS = [
  'empty',
  'too_long',
  'invalid_ip',
  'invalid_host_name',
  'label_too_long',
  'name_too_long',
  'invalid_punycode',
  'invalid_url',
  'wildcard_not_a_target',
  'block_not_a_target',
] as const;
export type TargetReason = (typeof TARGET_REASONS)[number];

export type TargetResult = ParsedTarget | { kind: 'invalid'; reason: TargetReason };

export const MAX_TARGET_LENGTH = 2048;

const HOST_REASONS: Record<HostNameProblem, TargetReason> = {
  empty: 'invalid_host_name',
  invalid_characters: 'invalid_host_name',
  empty_label: 'invalid_host_name',
  numeric_top_label: 'invalid_ip',
  label_too_long: 'label_too_long',
  name_too_long: 'name_too_long',
  invalid_punycode: 'invalid_punycode',
};

const URL_PREFIX = /^[a-z][a-z0-9+.-]*:\/\//i;
const PORT = /^\d{1,5}$/;
const isPort = (text: string): boolean => PORT.test(text) && Number(text) <= 65535;
const isPortOrEmpty = (text: string): boolean => text === '' || isPort(text);

function ipv6Target(value: bigint): ParsedTarget {
  return value >= IPV4_MAPPED_START && value <= IPV4_MAPPED_END
    ? { kind: 'ipv4', value: Number(value & 0xffffffffn) }
    : { kind: 'ipv6', value };
}

/** A bare host: address or name, no port. */
function hostTarget(host: string): TargetResult {
  if (host.length === 0) return { kind: 'invalid', reason: 'invalid_host_name' };
  if (host.includes(':')) {
    const v6 = parseIpv6(host);
    return v6 === undefined ? { kind: 'invalid', reason: 'invalid_ip' } : ipv6Target(v6);
  }
  const last = host.charCodeAt(host.length - 1);
  if (last >= 48 && last <= 57) {
    // A name's last label is never all digits: this is an IPv4 address or nothing.
    const v4 = parseIpv4(host);
    if (v4 !== undefined) return { kind: 'ipv4', value: v4 };
  }
  if (host.includes('*')) return { kind: 'invalid', reason: 'wildcard_not_a_target' };
  const name = normalizeHostName(host);
  return name.ok
    ? { kind: 'host', name: name.ascii }
    : { kind: 'invalid', reason: HOST_REASONS[name.problem] };
}

/** A URL's host by the WHATWG URL parser (IPv4 in any inet_aton spelling, IDNA, escapes). */
function whatwgUrlTarget(text: string): TargetResult {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { kind: 'invalid', reason: 'invalid_url' };
  }
  const host = url.hostname;
  if (host === '') return { kind: 'invalid', reason: 'invalid_url' };
  if (host.startsWith('[')) return hostTarget(host.slice(1, -1));
  return hostTarget(host);
}

/** Letters, digits, `.`, `-`, `_`: a host the URL parser would only lower-case. */
const PLAIN_HOST = /^[A-Za-z0-9._-]+$/;
/** A last label the URL parser reads as a number (`1`, `0x7f`): an IPv4 spelling. */
const NUMERIC_LABEL = /^(\d+|0x[0-9a-f]*)$/i;

/**
 * The host of a URL target. The common case (`scheme://host[:port][/?#...]` with a plain
 * name, a dotted quad or a bracketed IPv6 address) is cut out directly — the URL parser would
 * read it the same way and costs several times more, which matters at 100 000 targets; any
 * other form (user-info, escapes, non-ASCII, inet_aton spellings such as `0x7f.1`) goes to it.
 */
function urlTarget(text: string): TargetResult {
  const start = text.indexOf('://') + 3;
  let end = start;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code === 47 || code === 63 || code === 35 || code === 92) break; // / ? # \
    end += 1;
  }
  const authority = text.slice(start, end);
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    const rest = authority.slice(close + 1);
    const v6 = close > 0 ? parseIpv6(authority.slice(1, close)) : undefined;
    if (
      v6 !== undefined &&
      (rest === '' || (rest.startsWith(':') && isPortOrEmpty(rest.slice(1))))
    ) {
      return ipv6Target(v6);
    }
    return whatwgUrlTarget(text);
  }
  const colon = authority.indexOf(':');
  const host = colon < 0 ? authority : authority.slice(0, colon);
  if (colon >= 0 && !isPortOrEmpty(authority.slice(colon + 1))) return whatwgUrlTarget(text);
  if (!PLAIN_HOST.test(host)) return whatwgUrlTarget(text);
  const v4 = parseIpv4(host);
  if (v4 !== undefined) return { kind: 'ipv4', value: v4 };
  const trimmed = host.endsWith('.') ? host.slice(0, -1) : host;
  if (NUMERIC_LABEL.test(trimmed.slice(trimmed.lastIndexOf('.') + 1))) return whatwgUrlTarget(text);
  return hostTarget(host);
}

/** Parses one target line (trimmed). */
export function parseTarget(input: string): TargetResult {
  const text = input.trim();
  if (text.length === 0) return { kind: 'invalid', reason: 'empty' };
  if (text.length > MAX_TARGET_LENGTH) return { kind: 'invalid', reason: 'too_long' };
  if (URL_PREFIX.test(text)) return urlTarget(text);
  if (text.includes('/')) return { kind: 'invalid', reason: 'block_not_a_target' };
  if (text.startsWith('[')) {
    // [v6] or [v6]:port
    const close = text.indexOf(']');
    if (close < 0) return { kind: 'invalid', reason: 'invalid_ip' };
    const rest = text.slice(close + 1);
    if (rest !== '' && !(rest.startsWith(':') && isPort(rest.slice(1)))) {
      return { kind: 'invalid', reason: 'invalid_ip' };
    }
    const v6 = parseIpv6(text.slice(1, close));
    return v6 === undefined ? { kind: 'invalid', reason: 'invalid_ip' } : ipv6Target(v6);
  }
  const colon = text.indexOf(':');
  if (colon >= 0 && colon === text.lastIndexOf(':')) {
    // host:port (a single colon is never IPv6)
    if (!isPort(text.slice(colon + 1))) return { kind: 'invalid', reason: 'invalid_host_name' };
    return hostTarget(text.slice(0, colon));
  }
  return hostTarget(text);
}
