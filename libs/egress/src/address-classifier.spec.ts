import { addressAllowed, classifyAddress } from './address-classifier';
import { parseIpAddress } from './ip-address';

function classify(text: string) {
  const address = parseIpAddress(text);
  if (!address) throw new Error(`not an address: ${text}`);
  return classifyAddress(address);
}

describe('address classifier', () => {
  it.each([
    // IPv4: local (dialled only with PLUGIN_EGRESS_ALLOW_LOCAL_DIAL)
    ['127.0.0.1', 'local', 'loopback'],
    ['127.255.255.254', 'local', 'loopback'],
    ['10.0.0.1', 'local', 'private'],
    ['10.255.255.255', 'local', 'private'],
    ['172.16.0.1', 'local', 'private'],
    ['172.31.255.255', 'local', 'private'],
    ['192.168.1.1', 'local', 'private'],
    ['169.254.0.1', 'local', 'link_local'],
    ['169.254.169.253', 'local', 'link_local'],
    ['100.64.0.1', 'local', 'cgnat'],
    ['100.127.255.255', 'local', 'cgnat'],
    ['198.18.0.1', 'local', 'benchmarking'],
    // IPv4: never
    ['169.254.169.254', 'forbidden', 'metadata'],
    ['169.254.170.2', 'forbidden', 'metadata'],
    ['100.100.100.200', 'forbidden', 'metadata'],
    ['192.0.0.192', 'forbidden', 'metadata'],
    ['0.0.0.0', 'forbidden', 'unspecified'],
    ['0.1.2.3', 'forbidden', 'this_network'],
    ['224.0.0.1', 'forbidden', 'multicast'],
    ['239.255.255.250', 'forbidden', 'multicast'],
    ['255.255.255.255', 'forbidden', 'broadcast'],
    ['240.0.0.1', 'forbidden', 'reserved'],
    ['192.0.2.1', 'forbidden', 'documentation'],
    ['198.51.100.1', 'forbidden', 'documentation'],
    ['203.0.113.1', 'forbidden', 'documentation'],
    ['192.0.0.8', 'forbidden', 'ietf_protocol'],
    ['192.88.99.1', 'forbidden', '6to4_relay'],
    // IPv4: public, including the neighbours of every special range
    ['8.8.8.8', 'public', 'public'],
    ['1.1.1.1', 'public', 'public'],
    ['9.255.255.255', 'public', 'public'],
    ['11.0.0.0', 'public', 'public'],
    ['172.15.255.255', 'public', 'public'],
    ['172.32.0.0', 'public', 'public'],
    ['192.167.255.255', 'public', 'public'],
    ['192.169.0.0', 'public', 'public'],
    ['100.63.255.255', 'public', 'public'],
    ['100.128.0.0', 'public', 'public'],
    ['126.255.255.255', 'public', 'public'],
    ['128.0.0.0', 'public', 'public'],
    ['169.253.255.255', 'public', 'public'],
    ['169.255.0.0', 'public', 'public'],
    ['223.255.255.255', 'public', 'public'],
    // IPv6
    ['::1', 'local', 'loopback'],
    ['::', 'forbidden', 'unspecified'],
    ['fc00::1', 'local', 'unique_local'],
    ['fdff:ffff::1', 'local', 'unique_local'],
    ['fe80::1', 'local', 'link_local'],
    ['febf::1', 'local', 'link_local'],
    ['fec0::1', 'local', 'site_local'],
    ['fd00:ec2::254', 'forbidden', 'metadata'],
    ['ff02::1', 'forbidden', 'multicast'],
    ['::127.0.0.1', 'forbidden', 'ipv4_compatible'],
    ['::8.8.8.8', 'forbidden', 'ipv4_compatible'],
    ['::ffff:0:127.0.0.1', 'forbidden', 'ipv4_translated'],
    ['100::1', 'forbidden', 'discard'],
    ['2001:db8::1', 'forbidden', 'documentation'],
    ['3fff::1', 'forbidden', 'documentation'],
    ['2001::1', 'forbidden', 'teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'forbidden', 'teredo'],
    ['2001:2::1', 'forbidden', 'ietf_protocol'],
    ['64:ff9b:1::1', 'local', 'nat64_local'],
    ['4000::1', 'forbidden', 'reserved'],
    ['::2:0:0:1', 'forbidden', 'reserved'],
    ['2606:4700:4700::1111', 'public', 'public'],
    ['2a00:1450:4001:800::200e', 'public', 'public'],
    ['2001:200::1', 'public', 'public'],
    ['fbff::1', 'forbidden', 'reserved'],
  ])('%s is %s (%s)', (text, verdict, category) => {
    expect(classify(text)).toMatchObject({ verdict, category });
  });

  it.each([
    // IPv4-mapped, NAT64 and 6to4 addresses are judged by the IPv4 address inside
    ['::ffff:127.0.0.1', 'local', 'loopback', '127.0.0.1'],
    ['::ffff:169.254.169.254', 'forbidden', 'metadata', '169.254.169.254'],
    ['::ffff:10.0.0.1', 'local', 'private', '10.0.0.1'],
    ['::ffff:0.0.0.0', 'forbidden', 'unspecified', '0.0.0.0'],
    ['::ffff:8.8.8.8', 'public', 'ipv4_mapped', '8.8.8.8'],
    ['64:ff9b::127.0.0.1', 'local', 'loopback', '127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'forbidden', 'metadata', '169.254.169.254'],
    ['64:ff9b::192.168.0.1', 'local', 'private', '192.168.0.1'],
    ['64:ff9b::8.8.8.8', 'public', 'nat64', '8.8.8.8'],
    ['2002:7f00:1::', 'local', 'loopback', '127.0.0.1'],
    ['2002:a9fe:a9fe::1', 'forbidden', 'metadata', '169.254.169.254'],
    ['2002:c0a8:101::1', 'local', 'private', '192.168.1.1'],
    ['2002:808:808::1', 'public', '6to4', '8.8.8.8'],
  ])('%s is %s: embedded %s', (text, verdict, category, embedded) => {
    const klass = classify(text);
    expect(klass.verdict).toBe(verdict);
    expect(klass.category).toMatch(new RegExp(`${category}$`));
    expect(klass.embedded).toBe(embedded);
  });

  it('dials local addresses only with PLUGIN_EGRESS_ALLOW_LOCAL_DIAL, never forbidden ones', () => {
    expect(addressAllowed(classify('8.8.8.8'), false)).toBe(true);
    expect(addressAllowed(classify('127.0.0.1'), false)).toBe(false);
    expect(addressAllowed(classify('127.0.0.1'), true)).toBe(true);
    expect(addressAllowed(classify('169.254.169.254'), true)).toBe(false);
    expect(addressAllowed(classify('0.0.0.0'), true)).toBe(false);
    expect(addressAllowed(classify('::ffff:127.0.0.1'), true)).toBe(true);
  });
});
