import { domainToASCII } from 'node:url';
import { parseIpAddress, type IpAddress } from './ip-address';

/** A URL host after normalisation: an IP literal, or a lower-case ASCII DNS name. */
export type EgressHost = { kind: 'ip'; address: IpAddress } | { kind: 'name'; name: string };

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/**
 * Normalises a host the way the connect would see it: brackets off, any IPv4 spelling
 * (`0x7f000001`, `127.1`, `0177.0.0.1`, `2130706433`) to its address, IPv6 to its bytes,
 * names to lower-case IDNA ASCII without the trailing dot. Undefined when the host is not
 * something the guard will dial (zone ids, empty labels, characters outside LDH and `_`).
 */
export function normaliseHost(raw: string): EgressHost | undefined {
  if (raw.length === 0 || raw.length > 255) return undefined;
  if (raw.startsWith('[')) {
    const address = raw.endsWith(']') ? parseIpAddress(raw) : undefined;
    return address ? { kind: 'ip', address } : undefined;
  }
  if (raw.includes(':') || raw.includes('%')) return undefined;
  const ascii = domainToASCII(raw);
  if (ascii === '') return undefined;
  const address = parseIpAddress(ascii);
  if (address) return { kind: 'ip', address };
  const name = ascii.endsWith('.') ? ascii.slice(0, -1) : ascii;
  const labels = name.split('.');
  if (labels.length === 0 || !labels.every((l) => LABEL.test(l))) return undefined;
  // WHATWG "ends in a number": a name whose last label is numeric is an IPv4 or invalid.
  if (/^(\d+|0x[0-9a-f]*)$/.test(labels[labels.length - 1])) return undefined;
  return { kind: 'name', name };
}

/** Text used to compare hosts: the canonical address or the name. */
export function hostKey(host: EgressHost): string {
  return host.kind === 'ip' ? host.address.text : host.name;
}

/**
 * Names that are refused before any DNS query. `forbidden`: cloud metadata services, never
 * dialled. `local`: names that only exist inside a network (localhost, single-label names
 * completed by the resolver's search list, `.local`, `.internal`, `.home.arpa`,
 * `.localdomain`), dialled only with the policy's `allowLocalDial`. Their addresses are
 * still checked after resolution.
 */
export function classifyHostName(name: string): 'forbidden' | 'local' | 'public' {
  if (METADATA_NAMES.has(name)) return 'forbidden';
  if (!name.includes('.')) return 'local';
  if (LOCAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) {
    return 'local';
  }
  return 'public';
}

const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);

const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'localdomain'];
