import {
  ipv4FromBytes,
  parseCidr,
  rangeContains,
  type IpAddress,
  type IpRange,
} from './ip-address';

/**
 * What the guard does with an address: `public` is dialled; `local` only with the policy's
 * `allowLocalDial` (PLUGIN_EGRESS_ALLOW_LOCAL_DIAL, OUTBOUND_ALLOW_LOCAL_DIAL, ...); `forbidden`
 * never (cloud metadata, unspecified, multicast, broadcast, documentation and reserved space:
 * no caller has business there).
 */
export type AddressVerdict = 'public' | 'local' | 'forbidden';

export interface AddressClass {
  verdict: AddressVerdict;
  /** The range's name, e.g. `loopback`, `private`, `metadata`; `public` for the rest. */
  category: string;
  /** For IPv4-mapped, NAT64 and 6to4 addresses: the embedded IPv4 address that decided. */
  embedded?: string;
}

interface SpecialRange {
  range: IpRange;
  category: string;
  verdict: AddressVerdict | 'embedded';
  /** Byte offset of the embedded IPv4 address (verdict `embedded`). */
  embeddedAt?: number;
}

function special(
  cidr: string,
  category: string,
  verdict: SpecialRange['verdict'],
  embeddedAt?: number,
): SpecialRange {
  const range = parseCidr(cidr);
  if ('error' in range) throw new Error(range.error);
  return { range, category, verdict, embeddedAt };
}

/** Most specific first: the first range containing the address decides. */
const IPV4_RANGES: readonly SpecialRange[] = [
  special('0.0.0.0/32', 'unspecified', 'forbidden'),
  special('0.0.0.0/8', 'this_network', 'forbidden'),
  special('10.0.0.0/8', 'private', 'local'),
  special('100.100.100.200/32', 'metadata', 'forbidden'), // Alibaba Cloud
  special('100.64.0.0/10', 'cgnat', 'local'),
  special('127.0.0.0/8', 'loopback', 'local'),
  special('169.254.169.254/32', 'metadata', 'forbidden'), // AWS, GCP, Azure, OpenStack, ...
  special('169.254.170.2/32', 'metadata', 'forbidden'), // AWS ECS task metadata
  special('169.254.0.0/16', 'link_local', 'local'),
  special('172.16.0.0/12', 'private', 'local'),
  special('192.0.0.192/32', 'metadata', 'forbidden'), // Oracle Cloud
  special('192.0.0.0/24', 'ietf_protocol', 'forbidden'),
  special('192.0.2.0/24', 'documentation', 'forbidden'),
  special('192.88.99.0/24', '6to4_relay', 'forbidden'),
  special('192.168.0.0/16', 'private', 'local'),
  special('198.18.0.0/15', 'benchmarking', 'local'),
  special('198.51.100.0/24', 'documentation', 'forbidden'),
  special('203.0.113.0/24', 'documentation', 'forbidden'),
  special('224.0.0.0/4', 'multicast', 'forbidden'),
  special('255.255.255.255/32', 'broadcast', 'forbidden'),
  special('240.0.0.0/4', 'reserved', 'forbidden'),
];

const IPV6_RANGES: readonly SpecialRange[] = [
  special('::/128', 'unspecified', 'forbidden'),
  special('::1/128', 'loopback', 'local'),
  special('::ffff:0:0/96', 'ipv4_mapped', 'embedded', 12),
  special('::/96', 'ipv4_compatible', 'forbidden'),
  special('::ffff:0:0:0/96', 'ipv4_translated', 'forbidden'),
  special('64:ff9b::/96', 'nat64', 'embedded', 12),
  special('64:ff9b:1::/48', 'nat64_local', 'local'),
  special('100::/64', 'discard', 'forbidden'),
  special('2001::/32', 'teredo', 'forbidden'),
  special('2001::/23', 'ietf_protocol', 'forbidden'),
  special('2001:db8::/32', 'documentation', 'forbidden'),
  special('2002::/16', '6to4', 'embedded', 2),
  special('3fff::/20', 'documentation', 'forbidden'),
  special('fd00:ec2::254/128', 'metadata', 'forbidden'), // AWS (IPv6 IMDS)
  special('fc00::/7', 'unique_local', 'local'),
  special('fe80::/10', 'link_local', 'local'),
  special('fec0::/10', 'site_local', 'local'),
  special('ff00::/8', 'multicast', 'forbidden'),
];

const GLOBAL_UNICAST_V6 = special('2000::/3', 'global_unicast', 'public');

/** Classifies one address (IPv4 or IPv6) by the special-purpose registries. */
export function classifyAddress(address: IpAddress): AddressClass {
  const ranges = address.family === 4 ? IPV4_RANGES : IPV6_RANGES;
  for (const entry of ranges) {
    if (!rangeContains(entry.range, address)) continue;
    if (entry.verdict !== 'embedded') return { verdict: entry.verdict, category: entry.category };
    const at = entry.embeddedAt ?? 12;
    const inner = ipv4FromBytes(address.bytes.slice(at, at + 4));
    const innerClass = classifyAddress(inner);
    return {
      verdict: innerClass.verdict,
      category:
        innerClass.verdict === 'public'
          ? entry.category
          : `${entry.category}:${innerClass.category}`,
      embedded: inner.text,
    };
  }
  if (address.family === 6 && !rangeContains(GLOBAL_UNICAST_V6.range, address)) {
    return { verdict: 'forbidden', category: 'reserved' };
  }
  return { verdict: 'public', category: 'public' };
}

/** Whether the guard may dial the address under the local-dial setting. */
export function addressAllowed(klass: AddressClass, allowLocalDial: boolean): boolean {
  return klass.verdict === 'public' || (klass.verdict === 'local' && allowLocalDial);
}
