import { WaitAborted, waitFor, WaitTimeoutError } from './wait-for';

describe('waitFor', () => {
  it('returns the value of the first attempt that does not throw', async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        calls += 1;
        if (calls < 3) throw new Error(`only ${calls}`);
        return calls;
      },
      { intervalMs: 1 },
    );
    expect(value).toBe(3);
  });

  it('waits for an asynchronous probe', async () => {
    let ready = false;
    setImmediate(() => (ready = true));
    await expect(
      waitFor(
        async () => {
          await Promise.resolve();
          expect(ready).toBe(true);
          return 'seen';
        },
        { intervalMs: 1 },
      ),
    ).resolves.toBe('seen');
  });

  it('times out with what it last saw and the attempt count', async () => {
    let seen = 0;
    const failure = await waitFor(
      () => {
        seen += 1;
        throw new Error(`count is ${seen}`);
      },
      { timeoutMs: 100, intervalMs: 10, what: 'a count of 1000' },
    ).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(WaitTimeoutError);
    const message = (failure as Error).message;
    expect(message).toMatch(/^a count of 1000 not reached within 100 ms \(\d+ attempts\)/);
    expect(message).toContain(`last seen: count is ${seen}`);
    expect((failure as Error).cause).toBeInstanceOf(Error);
  });

  it('gives up on an attempt that never settles at the deadline', async () => {
    let calls = 0;
    const started = Date.now();
    const failure = await waitFor(
      () => {
        calls += 1;
        if (calls === 1) throw new Error('not yet');
        return new Promise<never>(() => undefined);
      },
      { timeoutMs: 150, intervalMs: 1 },
    ).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(WaitTimeoutError);
    expect((failure as Error).message).toContain('the last one still running');
    expect((failure as Error).message).toContain('last seen: not yet');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('stops at once when an attempt throws WaitAborted', async () => {
    let calls = 0;
    const failure = await waitFor(
      () => {
        calls += 1;
        throw new WaitAborted('the process exited');
      },
      { timeoutMs: 10_000 },
    ).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(WaitAborted);
    expect(calls).toBe(1);
  });
});
