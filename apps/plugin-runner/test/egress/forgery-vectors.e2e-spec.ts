import type { EgressPolicy, EgressRefusalReason, EgressRequest } from '@platform/egress';
import { EgressLab } from './support/egress-lab';

type Policy = Partial<EgressPolicy> & { allowlistText?: string[] };

interface Vector {
  name: string;
  /** `{V}`: port of the TLS stand-in and TLS victims; `{H}`: port of the plain-HTTP victim. */
  url: string;
  permitted: string[];
  policy?: Policy;
  method?: string;
  headers?: Array<[string, string]>;
  body?: string;
  reason: EgressRefusalReason;
  cause?: EgressRefusalReason;
}

/** Loopback dial allowed, but only 127.0.0.2 (the stand-in): a redirect must stay there. */
const JAIL: Policy = { allowLocalDial: true, allowlistText: ['127.0.0.2/32'] };
const LOCAL: Policy = { allowLocalDial: true };

const literal = (url: string, permitted: string, policy?: Policy): Vector => ({
  name: `literal ${url}`,
  url,
  permitted: [permitted],
  policy,
  reason: 'address_not_allowed',
});

const redirect = (
  name: string,
  to: string,
  permitted: string[],
  cause: EgressRefusalReason,
): Vector => ({
  name: `redirect to ${name}`,
  url: `https://good.test:{V}/redirect?to=${encodeURIComponent(to).replace(/%7B([VH])%7D/g, '{$1}')}`,
  permitted: ['good.test:{V}', ...permitted],
  policy: JAIL,
  reason: 'redirect_refused',
  cause,
});

/**
 * Request-forgery vectors. Each is refused with the reason of the one rule that stops it
 * (where the policy allows loopback, the vector would otherwise land on a victim server).
 */
const VECTORS: Vector[] = [
  // scheme and URL shape
  {
    name: 'plain http to a permitted host',
    url: 'http://allowed.test:{H}/',
    permitted: ['allowed.test:{H}'],
    policy: LOCAL,
    reason: 'scheme_not_allowed',
  },
  {
    name: 'ftp scheme',
    url: 'ftp://allowed.test/',
    permitted: ['allowed.test'],
    reason: 'scheme_not_allowed',
  },
  {
    name: 'file scheme',
    url: 'file:///etc/passwd',
    permitted: ['allowed.test'],
    reason: 'scheme_not_allowed',
  },
  {
    name: 'gopher to a local Redis',
    url: 'gopher://127.0.0.1:6379/_INFO',
    permitted: ['127.0.0.1:6379'],
    policy: LOCAL,
    reason: 'scheme_not_allowed',
  },
  {
    name: 'user-info naming the permitted host',
    url: 'https://allowed.test@evil.test:{V}/',
    permitted: ['allowed.test', 'evil.test:{V}'],
    policy: LOCAL,
    reason: 'invalid_url',
  },
  {
    name: 'user and password in the URL',
    url: 'https://user:pass@allowed.test:{V}/',
    permitted: ['allowed.test:{V}'],
    policy: LOCAL,
    reason: 'invalid_url',
  },
  {
    name: 'IPv6 zone id',
    url: 'https://[fe80::1%25lo]:{V}/',
    permitted: ['[fe80::1]:{V}'],
    policy: LOCAL,
    reason: 'invalid_url',
  },
  {
    name: 'relative URL',
    url: '/latest/meta-data/',
    permitted: ['allowed.test'],
    reason: 'invalid_url',
  },
  // permitted hosts
  {
    name: 'host not permitted',
    url: 'https://evil.test:{V}/',
    permitted: ['allowed.test:{V}'],
    policy: LOCAL,
    reason: 'host_not_permitted',
  },
  {
    name: 'backslash before @ (the URL host is evil.test)',
    url: 'https://evil.test:{V}\\@allowed.test/',
    permitted: ['allowed.test'],
    policy: LOCAL,
    reason: 'host_not_permitted',
  },
  {
    name: 'permitted name as a prefix',
    url: 'https://allowed.test.evil.test/',
    permitted: ['allowed.test'],
    reason: 'host_not_permitted',
  },
  {
    name: 'subdomain of a permitted host',
    url: 'https://api.allowed.test/',
    permitted: ['allowed.test'],
    reason: 'host_not_permitted',
  },
  {
    name: 'wildcard entry opens nothing',
    url: 'https://evil.test:{V}/',
    permitted: ['*.test', '*'],
    policy: LOCAL,
    reason: 'host_not_permitted',
  },
  {
    name: 'other port of a permitted host',
    url: 'https://allowed.test:{V}/',
    permitted: ['allowed.test'],
    policy: LOCAL,
    reason: 'host_not_permitted',
  },
  {
    name: 'loopback in hex when only a name is permitted',
    url: 'https://0x7f000001:{V}/',
    permitted: ['allowed.test:{V}'],
    policy: LOCAL,
    reason: 'host_not_permitted',
  },
  {
    name: 'PLUGIN_EGRESS_ALLOWLIST never adds a host',
    url: 'https://good.test:{V}/ok',
    permitted: ['allowed.test:{V}'],
    policy: JAIL,
    reason: 'host_not_permitted',
  },
  // names refused before any DNS query
  {
    name: 'GCP metadata name',
    url: 'https://metadata.google.internal/computeMetadata/v1/',
    permitted: ['metadata.google.internal'],
    policy: LOCAL,
    reason: 'host_forbidden',
  },
  {
    name: 'metadata name, upper case with trailing dot',
    url: 'https://METADATA.google.internal./',
    permitted: ['metadata.google.internal'],
    policy: LOCAL,
    reason: 'host_forbidden',
  },
  {
    name: 'localhost',
    url: 'https://localhost:{V}/',
    permitted: ['localhost:{V}'],
    reason: 'host_forbidden',
  },
  {
    name: 'single-label name (resolver search list)',
    url: 'https://intranet/',
    permitted: ['intranet'],
    reason: 'host_forbidden',
  },
  {
    name: '.internal name',
    url: 'https://cmdb.corp.internal/',
    permitted: ['cmdb.corp.internal'],
    reason: 'host_forbidden',
  },
  // literal addresses, in every spelling
  literal('https://127.0.0.1:{V}/', '127.0.0.1:{V}'),
  literal('https://0x7f000001:{V}/', '127.0.0.1:{V}'),
  literal('https://2130706433:{V}/', '127.0.0.1:{V}'),
  literal('https://127.1:{V}/', '127.0.0.1:{V}'),
  literal('https://0177.0.0.1:{V}/', '127.0.0.1:{V}'),
  literal('https://0x7f.1:{V}/', '127.0.0.1:{V}'),
  literal('https://127.0.0.1.:{V}/', '127.0.0.1:{V}'),
  literal('https://%31%32%37.0.0.1:{V}/', '127.0.0.1:{V}'),
  literal('https://１２７．０．０．１:{V}/', '127.0.0.1:{V}'),
  literal('https://[::ffff:127.0.0.1]:{V}/', '[::ffff:7f00:1]:{V}'),
  literal('https://[::127.0.0.1]:{V}/', '[::7f00:1]:{V}'),
  literal('https://[::1]:{V}/', '[::1]:{V}'),
  literal('https://[0:0:0:0:0:0:0:1]:{V}/', '[::1]:{V}'),
  literal('https://[::]:{V}/', '[::]:{V}'),
  literal('https://0:{V}/', '0.0.0.0:{V}'),
  literal('https://169.254.169.254/latest/meta-data/', '169.254.169.254', LOCAL),
  literal('https://0xa9fea9fe/latest/meta-data/', '169.254.169.254', LOCAL),
  literal('https://[::ffff:169.254.169.254]/', '[::ffff:a9fe:a9fe]', LOCAL),
  literal('https://[fd00:ec2::254]/', '[fd00:ec2::254]', LOCAL),
  literal('https://100.100.100.200/', '100.100.100.200', LOCAL),
  literal('https://10.0.0.1/', '10.0.0.1'),
  literal('https://172.16.0.1/', '172.16.0.1'),
  literal('https://192.168.0.1/', '192.168.0.1'),
  literal('https://100.64.0.1/', '100.64.0.1'),
  literal('https://169.254.1.1/', '169.254.1.1'),
  literal('https://[fd00::1]/', '[fd00::1]'),
  literal('https://[fe80::1]/', '[fe80::1]'),
  literal('https://[64:ff9b::7f00:1]:{V}/', '[64:ff9b::7f00:1]:{V}'),
  literal('https://[2002:7f00:1::]:{V}/', '[2002:7f00:1::]:{V}'),
  literal('https://[2001::1]/', '[2001::1]', LOCAL),
  literal('https://224.0.0.1/', '224.0.0.1', LOCAL),
  literal('https://255.255.255.255/', '255.255.255.255', LOCAL),
  literal('https://0.0.0.0:{V}/', '0.0.0.0:{V}', LOCAL),
  // addresses that come from DNS (the lab's responder)
  {
    name: 'name resolving to loopback',
    url: 'https://loop.test:{V}/',
    permitted: ['loop.test:{V}'],
    reason: 'address_not_allowed',
  },
  {
    name: 'name resolving to the metadata address',
    url: 'https://meta.test/',
    permitted: ['meta.test'],
    policy: LOCAL,
    reason: 'address_not_allowed',
  },
  {
    name: 'name resolving to a private address',
    url: 'https://private.test/',
    permitted: ['private.test'],
    reason: 'address_not_allowed',
  },
  {
    name: 'mixed answer: public and loopback',
    url: 'https://mixed.test:{V}/',
    permitted: ['mixed.test:{V}'],
    reason: 'address_not_allowed',
  },
  {
    name: 'AAAA answer ::1',
    url: 'https://v6loop.test:{V}/',
    permitted: ['v6loop.test:{V}'],
    reason: 'address_not_allowed',
  },
  {
    name: 'AAAA answer ::ffff:127.0.0.1',
    url: 'https://mapped.test:{V}/',
    permitted: ['mapped.test:{V}'],
    reason: 'address_not_allowed',
  },
  {
    name: 'AAAA answer NAT64 of the metadata address',
    url: 'https://nat64.test/',
    permitted: ['nat64.test'],
    policy: LOCAL,
    reason: 'address_not_allowed',
  },
  {
    name: 'name that does not resolve',
    url: 'https://nxdomain.test/',
    permitted: ['nxdomain.test'],
    reason: 'dns_failed',
  },
  {
    name: 'resolved address outside PLUGIN_EGRESS_ALLOWLIST',
    url: 'https://loop.test:{V}/',
    permitted: ['loop.test:{V}'],
    policy: JAIL,
    reason: 'address_not_allowlisted',
  },
  {
    name: 'IPv4-mapped loopback outside PLUGIN_EGRESS_ALLOWLIST',
    url: 'https://mapped.test:{V}/',
    permitted: ['mapped.test:{V}'],
    policy: JAIL,
    reason: 'address_not_allowlisted',
  },
  {
    name: 'DNS server that never answers',
    url: 'https://slowdns.test/',
    permitted: ['slowdns.test'],
    policy: { timeoutMs: 500 },
    reason: 'timeout',
  },
  // the request itself
  {
    name: 'CONNECT method',
    url: 'https://good.test:{V}/',
    permitted: ['good.test:{V}'],
    policy: JAIL,
    method: 'CONNECT',
    reason: 'method_not_allowed',
  },
  {
    name: 'TRACE method',
    url: 'https://good.test:{V}/',
    permitted: ['good.test:{V}'],
    policy: JAIL,
    method: 'TRACE',
    reason: 'method_not_allowed',
  },
  {
    name: 'Host header of another host',
    url: 'https://good.test:{V}/echo',
    permitted: ['good.test:{V}'],
    policy: JAIL,
    headers: [['Host', 'metadata.google.internal']],
    reason: 'header_not_allowed',
  },
  {
    name: 'Transfer-Encoding smuggling',
    url: 'https://good.test:{V}/echo',
    permitted: ['good.test:{V}'],
    policy: JAIL,
    headers: [['transfer-encoding', 'chunked']],
    reason: 'header_not_allowed',
  },
  {
    name: 'Proxy-Authorization',
    url: 'https://good.test:{V}/echo',
    permitted: ['good.test:{V}'],
    policy: JAIL,
    headers: [['proxy-authorization', 'Basic eDp5']],
    reason: 'header_not_allowed',
  },
  {
    name: 'CRLF injection in a header value',
    url: 'https://good.test:{V}/echo',
    permitted: ['good.test:{V}'],
    policy: JAIL,
    headers: [['x-note', 'a\r\nHost: evil.test']],
    reason: 'header_not_allowed',
  },
  {
    name: 'request body over the cap',
    url: 'https://good.test:{V}/echo',
    permitted: ['good.test:{V}'],
    policy: { ...JAIL, maxRequestBytes: 16 },
    method: 'POST',
    body: 'x'.repeat(17),
    reason: 'request_too_large',
  },
  // redirects: every hop is checked again
  redirect(
    'loopback (outside the allowlist)',
    'https://127.0.0.1:{V}/',
    ['127.0.0.1:{V}'],
    'address_not_allowlisted',
  ),
  redirect(
    'loopback in hex',
    'https://0x7f000001:{V}/',
    ['127.0.0.1:{V}'],
    'address_not_allowlisted',
  ),
  redirect('IPv6 loopback', 'https://[::1]:{V}/', ['[::1]:{V}'], 'address_not_allowlisted'),
  redirect(
    'a name resolving to loopback',
    'https://loop.test:{V}/',
    ['loop.test:{V}'],
    'address_not_allowlisted',
  ),
  redirect(
    'the metadata address',
    'https://169.254.169.254/latest/meta-data/',
    ['169.254.169.254'],
    'address_not_allowed',
  ),
  redirect('a private address', 'https://10.0.0.1/', ['10.0.0.1'], 'address_not_allowlisted'),
  redirect('a host not permitted', 'https://evil.test:{V}/', [], 'host_not_permitted'),
  redirect('plain http', 'http://allowed.test:{H}/', ['allowed.test:{H}'], 'scheme_not_allowed'),
  redirect(
    'the metadata name',
    'https://metadata.google.internal/',
    ['metadata.google.internal'],
    'host_forbidden',
  ),
  redirect(
    'a URL with user-info',
    'https://good.test:{V}@evil.test:{V}/',
    ['evil.test:{V}'],
    'invalid_url',
  ),
  {
    name: 'redirect loop',
    url: 'https://good.test:{V}/loop',
    permitted: ['good.test:{V}'],
    policy: JAIL,
    reason: 'too_many_redirects',
  },
  // caps
  {
    name: 'declared response body over the cap',
    url: 'https://good.test:{V}/big?size=5000',
    permitted: ['good.test:{V}'],
    policy: { ...JAIL, maxResponseBytes: 4096 },
    reason: 'body_too_large',
  },
  {
    name: 'chunked response body over the cap',
    url: 'https://good.test:{V}/chunked?size=8192',
    permitted: ['good.test:{V}'],
    policy: { ...JAIL, maxResponseBytes: 4096 },
    reason: 'body_too_large',
  },
  {
    name: 'body that never ends',
    url: 'https://good.test:{V}/hang',
    permitted: ['good.test:{V}'],
    policy: { ...JAIL, timeoutMs: 500 },
    reason: 'timeout',
  },
  {
    name: 'server that never answers',
    url: 'https://good.test:{V}/silent',
    permitted: ['good.test:{V}'],
    policy: { ...JAIL, timeoutMs: 500 },
    reason: 'timeout',
  },
];

describe('egress guard: request-forgery vectors', () => {
  let lab: EgressLab;
  let refused = 0;

  beforeAll(async () => {
    lab = await EgressLab.start();
    lab.dns.set('allowed.test', ['127.0.0.1']);
    lab.dns.set('evil.test', ['127.0.0.1']);
    lab.dns.set('good.test', ['127.0.0.2']);
    lab.dns.set('loop.test', ['127.0.0.1']);
    lab.dns.set('meta.test', ['169.254.169.254']);
    lab.dns.set('private.test', ['10.0.0.1']);
    lab.dns.set('mixed.test', ['93.184.216.34', '127.0.0.1']);
    lab.dns.set('v6loop.test', ['::1']);
    lab.dns.set('mapped.test', ['::ffff:127.0.0.1']);
    lab.dns.set('nat64.test', ['64:ff9b::a9fe:a9fe']);
    lab.dns.set('slowdns.test', () => 'drop');
    // localhost, intranet and cmdb.corp.internal deliberately resolve here too: the name
    // rule must stop them before any query.
    lab.dns.set('localhost', ['127.0.0.1']);
    lab.dns.set('intranet', ['127.0.0.1']);
    lab.dns.set('cmdb.corp.internal', ['127.0.0.1']);
    lab.dns.set('metadata.google.internal', ['169.254.169.254']);
  });

  afterAll(async () => {
    await lab.close();
  });

  it('has at least 40 vectors', () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(VECTORS.map((v) => [v.name, v] as const))('refuses %s', async (_name, vector) => {
    const fill = (text: string) =>
      text.replaceAll('{V}', String(lab.port)).replaceAll('{H}', String(lab.httpPort));
    const request: EgressRequest = {
      method: vector.method ?? (vector.body === undefined ? 'GET' : 'POST'),
      url: fill(vector.url),
      headers: vector.headers,
      body: vector.body === undefined ? undefined : Buffer.from(vector.body),
    };
    const before = await lab.denialCount(vector.reason);
    const outcome = await lab
      .guard(vector.policy)
      .request(lab.context(...vector.permitted.map(fill)), request);
    expect(outcome).toEqual({
      ok: false,
      reason: vector.reason,
      ...(vector.cause ? { cause: vector.cause } : {}),
      message: expect.any(String),
    });
    expect(await lab.denialCount(vector.reason)).toBe(before + 1);
    expect(lab.victims.map((v) => `${v.name}: ${v.connections}`)).toEqual(
      lab.victims.map((v) => `${v.name}: 0`),
    );
    refused += 1;
  });

  it('every vector was refused, none reached a victim, and redirects only ever hit the stand-in', () => {
    expect(refused).toBe(VECTORS.length);
    expect(lab.escapes()).toBe(0);
    expect(
      lab.good.every(
        (r) =>
          r.url.startsWith('/redirect') ||
          ['/loop', '/big?size=5000', '/chunked?size=8192', '/hang', '/silent'].includes(r.url),
      ),
    ).toBe(true);
    // The request-side refusals never opened a connection.
    expect(lab.good.filter((r) => r.url === '/echo' || r.url === '/')).toEqual([]);
  });
});
