import { serveApi, startJiraStandIn, TokenBucket, type HttpStandIn } from './trackers';

describe('TokenBucket', () => {
  it('lets a full second through at once, then one request per 1/R s, and says how long to wait', () => {
    const bucket = new TokenBucket({ perSecond: 4 }, 0);
    expect([0, 0, 0, 0].map(() => bucket.take(0))).toEqual([0, 0, 0, 0]);
    expect(bucket.take(0)).toBe(1);
    // A quarter of a second refills one token, not more.
    expect(bucket.take(250)).toBe(0);
    expect(bucket.take(250)).toBe(1);
    // Refused requests cost nothing: after a whole second the bucket is full again, never fuller.
    expect(bucket.take(10_000)).toBe(0);
    expect([1, 2, 3, 4].map(() => bucket.take(10_000))).toEqual([0, 0, 0, 1]);
  });

  it('keeps R per second over a long run (the burst adds once)', () => {
    const bucket = new TokenBucket({ perSecond: 100 }, 0);
    let passed = 0;
    // A caller sending every millisecond for 10 s.
    for (let ms = 0; ms < 10_000; ms += 1) if (bucket.take(ms) === 0) passed += 1;
    expect(passed).toBeGreaterThanOrEqual(1_099);
    expect(passed).toBeLessThanOrEqual(1_100);
  });

  it('has a burst of its own, answers whole seconds for a slow limit, refuses 0', () => {
    const bucket = new TokenBucket({ perSecond: 0.5, burst: 2 }, 0);
    expect(bucket.take(0)).toBe(0);
    expect(bucket.take(0)).toBe(0);
    expect(bucket.take(0)).toBe(2);
    expect(bucket.take(1_000)).toBe(1);
    expect(() => new TokenBucket({ perSecond: 0 })).toThrow('perSecond');
  });
});

describe('a limited stand-in', () => {
  const standIns: HttpStandIn[] = [];
  afterAll(async () => {
    for (const s of standIns) await s.close();
  });

  it("answers Jira's 429 + Retry-After past the limit and counts both kinds; off again, all pass", async () => {
    const jira = await startJiraStandIn({
      email: 'bot@example.test',
      apiToken: 'token-1',
      clientId: 'client',
      clientSecret: 'secret',
      projects: [{ id: '10100', key: 'SEC', name: 'Security' }],
      // One token a second: the eight requests below cannot earn a sixth even on a slow machine.
      limit: { perSecond: 1, burst: 5 },
    });
    standIns.push(jira);
    const auth = `Basic ${Buffer.from('bot@example.test:token-1').toString('base64')}`;
    const get = () =>
      fetch(`${jira.url}/rest/api/2/project/SEC`, { headers: { authorization: auth } });
    const answers = await Promise.all(Array.from({ length: 8 }, get));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // The bucket's refill, as Jira Data Center tells it: 1 token per 1 s.
    expect(limited.headers.get('x-ratelimit-fillrate')).toBe('1');
    expect(limited.headers.get('x-ratelimit-interval-seconds')).toBe('1');
    expect(await limited.json()).toEqual({ errorMessages: ['Rate limit exceeded.'], errors: {} });
    expect(jira.counters).toEqual({ answered: 5, limited: 3 });
    expect(jira.requests).toHaveLength(8);
    expect(jira.limit).toEqual({ perSecond: 1, burst: 5 });

    jira.limit = undefined;
    const free = await Promise.all(Array.from({ length: 20 }, get));
    expect(free.every((a) => a.status === 200)).toBe(true);
    expect(jira.counters).toEqual({ answered: 25, limited: 3 });
  });

  it('checks the limit before the hostile switches; a generic stand-in answers its own 429', async () => {
    const api = await serveApi(() => ({ status: 200, body: { ok: true } }));
    standIns.push(api);
    expect(api.limit).toBeUndefined();
    api.limit = { perSecond: 1 };
    api.hostile = { kind: 'status', status: 503 };
    const first = await fetch(api.url);
    const second = await fetch(api.url);
    expect([first.status, second.status]).toEqual([503, 429]);
    expect(await second.json()).toEqual({ message: 'rate limited' });
    expect(second.headers.get('retry-after')).toBe('1');
    // The existing always-429 switch is unchanged.
    api.limit = undefined;
    api.hostile = { kind: 'rateLimit', retryAfter: '7' };
    const hostile = await fetch(api.url);
    expect([hostile.status, hostile.headers.get('retry-after')]).toEqual([429, '7']);
    expect(api.counters).toEqual({ answered: 2, limited: 1 });
  });
});
