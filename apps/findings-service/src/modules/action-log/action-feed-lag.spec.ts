import { Registry } from 'prom-client';
import { FEED_LAG_METRIC, FeedLagMeter } from './action-feed-lag';

describe('FeedLagMeter', () => {
  const setUp = (consumer: 'notifications' | 'tickets') => {
    let now = 1_000_000;
    const registry = new Registry();
    const warn = jest.fn();
    const meter = new FeedLagMeter(consumer, registry, { warn }, () => now);
    const value = async () =>
      (await registry.getSingleMetricAsString(FEED_LAG_METRIC))
        .split('\n')
        .find((l) => l.startsWith(`${FEED_LAG_METRIC}{consumer="${consumer}"}`));
    return { meter, warn, value, advance: (ms: number) => (now += ms) };
  };

  it('counts the seconds the horizon has not moved, per consumer; a move resets it', async () => {
    const { meter, value, advance } = setUp('tickets');
    expect(meter.observe('100')).toBe(0);
    advance(5_000);
    expect(meter.observe('100')).toBe(5);
    expect(await value()).toBe(`${FEED_LAG_METRIC}{consumer="tickets"} 5`);
    advance(1_000);
    expect(meter.observe('101')).toBe(0);
    expect(await value()).toBe(`${FEED_LAG_METRIC}{consumer="tickets"} 0`);
  });

  it('warns once past 300 s, again only after the feed moved and stalled anew', () => {
    const { meter, warn, advance } = setUp('notifications');
    meter.observe('7');
    advance(301_000);
    meter.observe('7');
    advance(10_000);
    meter.observe('7');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('notifications has not moved for 301 s');
    meter.observe('8');
    advance(301_000);
    meter.observe('8');
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('two meters share the one gauge (one registry), each with its label', async () => {
    const registry = new Registry();
    const a = new FeedLagMeter('notifications', registry, { warn: jest.fn() });
    const b = new FeedLagMeter('tickets', registry, { warn: jest.fn() });
    a.observe('1');
    b.observe('1');
    const text = await registry.getSingleMetricAsString(FEED_LAG_METRIC);
    expect(text).toContain('consumer="notifications"');
    expect(text).toContain('consumer="tickets"');
  });
});
