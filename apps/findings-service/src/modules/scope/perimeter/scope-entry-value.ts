import { normalizeHostName, type HostNameProblem } from './host-name';
import {
  formatIpv4,
  formatIpv6,
  IPV4_MAPPED_END,
  IPV4_MAPPED_START,
  parseIp,
  parseIpv4,
  parseIpv6,
} from './ip-text';

/**
 * The value of a perimeter entry (docs/findings-service/scope.md#entries):
 *
 * | kind       | written as                      | covers                                   |
 * | ---------- | ------------------------------- | ---------------------------------------- |
 * | `ip`       | `192.0.2.7`, `2001:db8::7`      | that address                             |
 * | `cidr`     | `192.0.2.0/24`, `2001:db8::/48` | the block (host bits must be zero)       |
 * | `range`    | `192.0.2.10-192.0.2.99`         | start to end, both included, one family  |
 * | `domain`   | `example.com`                   | exactly that name                        |
 * | `wildcard` | `*.example.com`                 | every name below it, at any depth; not   |
 * |            |                                 | `example.com` itself                     |
 *
 * Bounds: an IPv4 block or range holds at most 2^24 addresses (a /8), an IPv6 one at most
 * 2^96 (a /32); `/0` and anything wider are refused. A `/32` (IPv4) or `/128` block and a
 * one-address range are stored as `ip`. A wildcard is only the whole leftmost label, and
 * needs at least two labels after it (`*.com` is refused).
 */
export const ENTRY_KINDS = ['ip', 'cidr', 'range', 'domain', 'wildcard'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export type IpEntryKind = 'ip' | 'cidr' | 'range';

export type ParsedEntry =
  | { kind: IpEntryKind; family: 4; start: number; end: number; value: string }
  | { kind: IpEntryKind; family: 6; start: bigint; end: bigint; value: string }
  | { kind: 'domain'; name: string; value: string }
  | { kind: 'wildcard'; base: string; value: string };

export type EntryProblem =
  | { code: 'invalid'; problem: string }
  | { code: 'too_wide'; problem: string }
  | { code: 'host_bits'; problem: string; network: string }
  | { code: 'name_too_long'; problem: string }
  | { code: 'punycode_invalid'; problem: string }
  | { code: 'wildcard_invalid'; problem: string };

export type ParsedEntryResult =
  { ok: true; entry: ParsedEntry } | { ok: false; error: EntryProblem };

export const MAX_ENTRY_TEXT_LENGTH = 300;
/** Smallest prefix length of a block (and the widest range) per family. */
export const MIN_PREFIX = { 4: 8, 6: 32 } as const;
const MAX_SPAN = { 4: 2 ** (32 - MIN_PREFIX[4]), 6: 1n << BigInt(128 - MIN_PREFIX[6]) };

const fail = (error: EntryProblem): ParsedEntryResult => ({ ok: false, error });
const invalid = (problem: string): ParsedEntryResult => fail({ code: 'invalid', problem });

const tooWide = (family: 4 | 6): ParsedEntryResult =>
  fail({
    code: 'too_wide',
    problem: `wider than allowed: at most a /${MIN_PREFIX[family]} (${
      family === 4 ? '16 777 216 addresses' : '2^96 addresses'
    }) for IPv${family}`,
  });

const HOST_PROBLEMS: Record<HostNameProblem, EntryProblem> = {
  empty: { code: 'invalid', problem: 'empty name' },
  invalid_characters: {
    code: 'invalid',
    problem:
      'not an IP address, CIDR block, address range or host name (labels of letters, digits, - and _)',
  },
  empty_label: { code: 'invalid', problem: 'the name has an empty label (two dots in a row)' },
  label_too_long: { code: 'name_too_long', problem: 'a label is longer than 63 characters' },
  name_too_long: { code: 'name_too_long', problem: 'the name is longer than 253 characters' },
  invalid_punycode: { code: 'punycode_invalid', problem: 'an xn-- label is not valid punycode' },
  numeric_top_label: {
    code: 'invalid',
    problem: 'not a valid IP address (dotted quad of decimal octets) or host name',
  },
};

const isMapped = (v: bigint): boolean => v >= IPV4_MAPPED_START && v <= IPV4_MAPPED_END;
const MAPPED_PROBLEM = 'an IPv4-mapped IPv6 address: write the IPv4 address itself';

function parseCidr(text: string): ParsedEntryResult {
  const slash = text.indexOf('/');
  const address = text.slice(0, slash);
  const lengthText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(lengthText)) return invalid('the prefix length must be a number');
  const length = Number(lengthText);
  if (address.includes(':')) {
    const start = parseIpv6(address);
    if (start === undefined) return invalid('not a valid IPv6 address before the /');
    if (length > 128) return invalid('an IPv6 prefix length is at most 128');
    if (isMapped(start)) return invalid(MAPPED_PROBLEM);
    if (length < MIN_PREFIX[6]) return tooWide(6);
    const size = 1n << BigInt(128 - length);
    const network = start - (start % size);
    if (network !== start) {
      const hint = `${formatIpv6(network)}/${length}`;
      return fail({
        code: 'host_bits',
        problem: `host bits are set; the block is ${hint}`,
        network: hint,
      });
    }
    const end = start + size - 1n;
    return length === 128
      ? { ok: true, entry: { kind: 'ip', family: 6, start, end, value: formatIpv6(start) } }
      : {
          ok: true,
          entry: { kind: 'cidr', family: 6, start, end, value: `${formatIpv6(start)}/${length}` },
        };
  }
  const start = parseIpv4(address);
  if (start === undefined) return invalid('not a valid IPv4 address before the /');
  if (length > 32) return invalid('an IPv4 prefix length is at most 32');
  if (length < MIN_PREFIX[4]) return tooWide(4);
  const size = 2 ** (32 - length);
  const network = start - (start % size);
  if (network !== start) {
    const hint = `${formatIpv4(network)}/${length}`;
    return fail({
      code: 'host_bits',
      problem: `host bits are set; the block is ${hint}`,
      network: hint,
    });
  }
  const end = start + size - 1;
  return length === 32
    ? { ok: true, entry: { kind: 'ip', family: 4, start, end, value: formatIpv4(start) } }
    : {
        ok: true,
        entry: { kind: 'cidr', family: 4, start, end, value: `${formatIpv4(start)}/${length}` },
      };
}

function parseRange(first: string, last: string): ParsedEntryResult {
  const a = parseIp(first);
  const b = parseIp(last);
  if (!a || !b) return invalid('a range is two IP addresses joined by -');
  if (a.family === 4 && b.family === 4) {
    if (a.value > b.value) return invalid('the range starts after it ends');
    if (b.value - a.value + 1 > MAX_SPAN[4]) return tooWide(4);
    const value =
      a.value === b.value ? formatIpv4(a.value) : `${formatIpv4(a.value)}-${formatIpv4(b.value)}`;
    return {
      ok: true,
      entry: {
        kind: a.value === b.value ? 'ip' : 'range',
        family: 4,
        start: a.value,
        end: b.value,
        value,
      },
    };
  }
  if (a.family === 6 && b.family === 6) {
    if (isMapped(a.value) || isMapped(b.value)) return invalid(MAPPED_PROBLEM);
    if (a.value > b.value) return invalid('the range starts after it ends');
    if (b.value - a.value + 1n > MAX_SPAN[6]) return tooWide(6);
    const value =
      a.value === b.value ? formatIpv6(a.value) : `${formatIpv6(a.value)}-${formatIpv6(b.value)}`;
    return {
      ok: true,
      entry: {
        kind: a.value === b.value ? 'ip' : 'range',
        family: 6,
        start: a.value,
        end: b.value,
        value,
      },
    };
  }
  return invalid('both ends of a range must be of one family (IPv4 or IPv6)');
}

function parseName(text: string): ParsedEntryResult {
  const wildcard = text.startsWith('*.');
  const name = wildcard ? text.slice(2) : text;
  if (name.includes('*')) {
    return fail({
      code: 'wildcard_invalid',
      problem: 'a wildcard may only be the whole leftmost label (*.example.com)',
    });
  }
  const host = normalizeHostName(name);
  if (!host.ok) return fail(HOST_PROBLEMS[host.problem]);
  if (!wildcard)
    return { ok: true, entry: { kind: 'domain', name: host.ascii, value: host.ascii } };
  if (!host.ascii.includes('.')) {
    return fail({
      code: 'wildcard_invalid',
      problem: 'a wildcard needs at least two labels after *. (*.example.com, not *.com)',
    });
  }
  return {
    ok: true,
    entry: { kind: 'wildcard', base: host.ascii, value: `*.${host.ascii}` },
  };
}

/** Parses one entry value as written by a person, a scanner or an IPAM system. */
export function parseEntryValue(input: string): ParsedEntryResult {
  const text = input.trim();
  if (text.length === 0) return invalid('empty');
  if (text.length > MAX_ENTRY_TEXT_LENGTH) {
    return fail({
      code: 'name_too_long',
      problem: `longer than ${MAX_ENTRY_TEXT_LENGTH} characters`,
    });
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    return invalid('a URL is not an entry: write its host name or address');
  }
  if (text.includes('/')) return parseCidr(text);
  const dash = /^([0-9a-f:.]+)\s*-\s*([0-9a-f:.]+)$/i.exec(text);
  if (dash && (text.includes(':') || /^[\d.]+\s*-\s*[\d.]+$/.test(text))) {
    return parseRange(dash[1], dash[2]);
  }
  if (text.includes(':')) {
    const value = parseIpv6(text);
    if (value === undefined) return invalid('not a valid IPv6 address');
    if (isMapped(value)) return invalid(MAPPED_PROBLEM);
    return {
      ok: true,
      entry: { kind: 'ip', family: 6, start: value, end: value, value: formatIpv6(value) },
    };
  }
  if (/^[\d.]+$/.test(text)) {
    const value = parseIpv4(text);
    if (value === undefined) {
      return invalid('not a valid IPv4 address (four decimal octets 0-255, no leading zeros)');
    }
    return {
      ok: true,
      entry: { kind: 'ip', family: 4, start: value, end: value, value: formatIpv4(value) },
    };
  }
  return parseName(text);
}
