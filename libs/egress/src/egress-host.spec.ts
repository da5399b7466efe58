import { classifyHostName, hostKey, normaliseHost } from './egress-host';

describe('egress host normalisation', () => {
  it.each([
    ['Allowed.Example', 'allowed.example'],
    ['allowed.example.', 'allowed.example'],
    ['BÜCHER.example', 'xn--bcher-kva.example'],
    ['0x7f000001', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['１２７．０．０．１', '127.0.0.1'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['[::]', '::'],
    ['0', '0.0.0.0'],
    ['a_b.example', 'a_b.example'],
  ])('%s is %s', (raw, key) => {
    const host = normaliseHost(raw);
    expect(host && hostKey(host)).toBe(key);
  });

  it.each([
    '',
    'a..b',
    '-a.example',
    'a b.example',
    '[fe80::1%eth0]',
    '[::1',
    'host:80',
    '1.2.3.4.5',
    'a.1',
    'a.0x10',
    'x'.repeat(64) + '.example',
  ])('%j is refused', (raw) => {
    expect(normaliseHost(raw)).toBeUndefined();
  });

  it.each([
    ['metadata.google.internal', 'forbidden'],
    ['metadata.goog', 'forbidden'],
    ['metadata', 'forbidden'],
    ['instance-data', 'forbidden'],
    ['localhost', 'local'],
    ['api.localhost', 'local'],
    ['printer.local', 'local'],
    ['cmdb.corp.internal', 'local'],
    ['nas.home.arpa', 'local'],
    ['intranet', 'local'],
    ['api.example.com', 'public'],
    ['localhost.example.com', 'public'],
  ])('name %s is %s', (name, verdict) => {
    expect(classifyHostName(name)).toBe(verdict);
  });
});
