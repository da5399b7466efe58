import { isRedisUnavailableError } from './redis-unavailable';

describe('isRedisUnavailableError', () => {
  it.each([
    "Stream isn't writeable and enableOfflineQueue options is false",
    'Connection is closed.',
    'Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.',
    'connect ECONNREFUSED 127.0.0.1:6390',
    'LOADING Redis is loading the dataset in memory',
    "OOM command not allowed when used memory > 'maxmemory'.",
  ])('treats "%s" as Redis being unavailable', (message) => {
    expect(isRedisUnavailableError(new Error(message))).toBe(true);
  });

  it('reads socket error codes', () => {
    const error = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(isRedisUnavailableError(error)).toBe(true);
  });

  it.each(['Custom Id cannot contain :', 'ERR syntax error', 'Delay must be a number'])(
    'leaves "%s" to the caller (a bug, not an outage)',
    (message) => {
      expect(isRedisUnavailableError(new Error(message))).toBe(false);
    },
  );

  it('ignores non-errors', () => {
    expect(isRedisUnavailableError('ECONNREFUSED')).toBe(false);
  });
});
