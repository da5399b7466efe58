import { formatHandshakeLine, parseHandshakeLine } from './native-handshake';

describe('native plugin handshake line', () => {
  it('formats and parses 1|1|unix|<socket>|grpc', () => {
    const line = formatHandshakeLine('/tmp/plugin-x/plugin.sock');
    expect(line).toBe('1|1|unix|/tmp/plugin-x/plugin.sock|grpc');
    expect(parseHandshakeLine(`${line}\n`)).toEqual({
      coreVersion: 1,
      appVersion: 1,
      network: 'unix',
      address: '/tmp/plugin-x/plugin.sock',
      protocol: 'grpc',
    });
  });

  it.each([
    ['too few fields', '1|1|unix|/tmp/s', /5 fields/],
    ['another core version', '2|1|unix|/tmp/s|grpc', /core protocol version "2"/],
    ['another app version', '1|7|unix|/tmp/s|grpc', /app protocol version "7"/],
    ['tcp', '1|1|tcp|127.0.0.1:5000|grpc', /network "tcp"/],
    ['a relative socket path', '1|1|unix|plugin.sock|grpc', /absolute path/],
    ['net/rpc', '1|1|unix|/tmp/s|netrpc', /protocol "netrpc"/],
  ])('refuses %s', (_name, line, message) => {
    expect(() => parseHandshakeLine(line)).toThrow(message);
  });
});
