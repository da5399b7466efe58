import { accessLogLevel, formatLatency, pathOf } from './access-log';

describe('access log rules', () => {
  it('chooses the level by outcome, agent polling routes at debug when successful', () => {
    expect(accessLogLevel(200, '/api/v1/users')).toBe('info');
    expect(accessLogLevel(304, '/api/v1/requests/:id/certificate')).toBe('debug');
    expect(accessLogLevel(200, '/api/v1/requests/:id/checkin')).toBe('debug');
    expect(accessLogLevel(404, '/api/v1/requests/:id/status')).toBe('warn');
    expect(accessLogLevel(503, '/api/v1/requests/:id/bundle-version')).toBe('error');
    expect(accessLogLevel(200, '/api/v1/requests')).toBe('info');
  });

  it('writes latency as seconds in production and as text in dev mode', () => {
    expect(formatLatency(0.0124, false)).toBe(0.0124);
    expect(formatLatency(0.0124, true)).toBe('12.4ms');
  });

  it('drops the query string from the path', () => {
    expect(pathOf('/api/v1/users?token=secret')).toBe('/api/v1/users');
    expect(pathOf('/health')).toBe('/health');
  });
});
