import { Gauge, Registry } from 'prom-client';
import { type CollectionKind, PeriodicCollector, replaceGaugeValues } from './periodic-collector';

function setUp(
  read: () => Promise<Record<string, number>>,
  intervalMs = 1_000,
  timeoutMs?: number,
) {
  const registry = new Registry();
  const gauge = new Gauge({
    name: 'things',
    help: 'things',
    labelNames: ['colour'],
    registers: [registry],
  });
  const failures: string[] = [];
  let now = 1_700_000_000_000;
  const kind: CollectionKind = {
    name: 'things',
    read: async () => {
      const values = await read();
      return () =>
        replaceGaugeValues(
          gauge,
          Object.entries(values).map(([colour, value]) => ({ labels: { colour }, value })),
        );
    },
  };
  const collector = new PeriodicCollector({
    registry,
    kinds: [kind],
    intervalMs,
    timeoutMs,
    names: { lastSuccess: 'last_ok_seconds', failures: 'failures_total' },
    onFailure: (k) => failures.push(k),
    now: () => now,
  });
  return {
    collector,
    failures,
    tick: (ms: number) => (now += ms),
    text: () => registry.metrics(),
  };
}

describe('PeriodicCollector', () => {
  it('sets the figures, and keeps them when a later read fails (counting the failure)', async () => {
    let result: Promise<Record<string, number>> = Promise.resolve({ red: 2, blue: 1 });
    const s = setUp(() => result);
    expect(await s.text()).toContain('failures_total{kind="things"} 0');
    expect(await s.collector.collect()).toBe(true);
    let text = await s.text();
    expect(text).toContain('things{colour="red"} 2');
    expect(text).toContain('things{colour="blue"} 1');
    expect(text).toContain('last_ok_seconds 1700000000');

    s.tick(60_000);
    result = Promise.reject(new Error('connection terminated'));
    expect(await s.collector.collect()).toBe(false);
    text = await s.text();
    expect(text).toContain('things{colour="red"} 2');
    expect(text).toContain('last_ok_seconds 1700000000');
    expect(text).toContain('failures_total{kind="things"} 1');
    expect(s.failures).toEqual(['things']);

    result = Promise.resolve({ red: 5 });
    expect(await s.collector.collect()).toBe(true);
    text = await s.text();
    expect(text).toContain('things{colour="red"} 5');
    expect(text).not.toContain('colour="blue"');
    expect(text).toContain('last_ok_seconds 1700000060');
  });

  it('fails a read that hangs past the time-out, and a stop ends the wait at once', async () => {
    let hang = true;
    const s = setUp(() =>
      hang ? new Promise<Record<string, number>>(() => undefined) : Promise.resolve({ red: 1 }),
    );
    const started = Date.now();
    expect(await s.collector.collect()).toBe(false); // interval 1 s = the time-out
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(await s.text()).toContain('failures_total{kind="things"} 1');
    expect(s.failures).toEqual(['things']);
    hang = true;
    const pending = s.collector.collect();
    await s.collector.stop();
    expect(await pending).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_900);
    hang = false;
  });

  it('collects at start and then every interval, never two at once', async () => {
    jest.useFakeTimers();
    try {
      let reads = 0;
      let release: (() => void) | undefined;
      const s = setUp(
        async () => {
          reads += 1;
          if (reads === 2) await new Promise<void>((resolve) => (release = resolve));
          return { red: reads };
        },
        1_000,
        60_000,
      );
      s.collector.start();
      await jest.advanceTimersByTimeAsync(0);
      expect(reads).toBe(1);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(reads).toBe(2);
      // The second read hangs: the next ticks are skipped, not stacked.
      await jest.advanceTimersByTimeAsync(3_000);
      expect(reads).toBe(2);
      release?.();
      await jest.advanceTimersByTimeAsync(1_000);
      expect(reads).toBe(3);
      await s.collector.stop();
      await jest.advanceTimersByTimeAsync(5_000);
      expect(reads).toBe(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
