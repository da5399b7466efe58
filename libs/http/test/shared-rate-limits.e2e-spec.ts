import { Logger } from '@nestjs/common';
import { testRedisUrl, uniqueQueuePrefix } from '@platform/testing';
import { SharedRateLimits, type SharedRateLimitsOptions } from '../src';

function options(keyPrefix: string, redisUrl = testRedisUrl()): SharedRateLimitsOptions {
  return { redisUrl, keyPrefix, connectionName: 'shared-rate-limits-test', trustedProxies: [] };
}

describe('SharedRateLimits - counters in Redis, one budget for every replica', () => {
  const opened: SharedRateLimits[] = [];
  function replica(settings: SharedRateLimitsOptions): SharedRateLimits {
    const limits = new SharedRateLimits(settings);
    opened.push(limits);
    return limits;
  }
  afterAll(() => Promise.all(opened.map((l) => l.onApplicationShutdown())));

  it('counts the requests of two replicas against one budget per key', async () => {
    const prefix = `${uniqueQueuePrefix()}:rl:`;
    const [a, b] = [replica(options(prefix)), replica(options(prefix))];
    expect(a.shared && b.shared).toBe(true);
    const allowed = [];
    for (const limits of [a, b, a, b])
      allowed.push((await limits.hit('login:10.0.0.1', 3)).allowed);
    expect(allowed).toEqual([true, true, true, false]);
    // another key has its own budget
    expect((await b.hit('login:10.0.0.2', 3)).allowed).toBe(true);
  });

  it('counts hits sent at once by two replicas exactly (pipelined writes, one script per hit)', async () => {
    const prefix = `${uniqueQueuePrefix()}:rl:`;
    const [a, b] = [replica(options(prefix)), replica(options(prefix))];
    await Promise.all([a.hit('warm', 1), b.hit('warm', 1)]); // both connected
    // 20 hits in one turn of the event loop: each client sends its ten as one pipeline.
    const decisions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).hit('burst', 5)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    const remaining = decisions.filter((d) => d.allowed).map((d) => d.remaining);
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4]);
    expect((await a.hit('burst', 5)).allowed).toBe(false);
  });

  it('starts a window at its first request: the wait is the rest of that minute', async () => {
    const limits = replica(options(`${uniqueQueuePrefix()}:rl:`));
    await limits.hit('k', 1);
    const refused = await limits.hit('k', 1);
    expect(refused).toMatchObject({ allowed: false, limit: 1, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(55);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('allows the request and warns when Redis cannot be reached (fails open)', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const limits = replica(options('x:', 'redis://127.0.0.1:1'));
    const decisions = [await limits.hit('k', 1), await limits.hit('k', 1)];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true]);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^rate limiter unavailable, request allowed: /),
    );
    warn.mockRestore();
  });

  it('counts in the process without Redis, and says so', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const limits = replica({ ...options('x:'), redisUrl: undefined });
    expect(limits.shared).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/this process counts alone/));
    expect([(await limits.hit('k', 1)).allowed, (await limits.hit('k', 1)).allowed]).toEqual([
      true,
      false,
    ]);
    warn.mockRestore();
  });
});
