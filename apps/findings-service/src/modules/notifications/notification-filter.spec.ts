import {
  channelThreshold,
  channelView,
  mergeIntoDraft,
  type NotificationItem,
} from './notification-filter';

const item = (id: string, severity: string, status = 'new'): NotificationItem => ({
  id,
  title: `finding ${id}`,
  severity,
  status,
  product_id: 'p',
  product: 'api',
  location: 'src/a.ts:1',
});

describe('notification coalescing and the per-channel filter', () => {
  it('merges findings into a draft: counts per severity, items most severe first, cut to 50', () => {
    const added = Array.from({ length: 60 }, (_, i) =>
      item(`f${String(i).padStart(2, '0')}`, i % 2 ? 'LOW' : 'CRITICAL'),
    );
    const draft = mergeIntoDraft('new_findings', { counts: {}, items: [] }, added.slice(0, 30));
    const merged = mergeIntoDraft('new_findings', draft, added.slice(30));
    expect(merged.counts).toEqual({ CRITICAL: 30, LOW: 30 });
    expect(merged.items).toHaveLength(50);
    expect(merged.items.slice(0, 30).every((i) => i.severity === 'CRITICAL')).toBe(true);
    expect(merged.items[0]!.id).toBe('f00');
  });

  it('a channel gets only findings at or above min_severity; none when nothing passes', () => {
    const n = mergeIntoDraft('new_findings', { counts: {}, items: [] }, [
      item('a', 'CRITICAL'),
      item('b', 'HIGH'),
      item('c', 'LOW'),
    ]);
    const high = channelView('new_findings', n, channelThreshold({ min_severity: 'HIGH' }));
    expect(high).toMatchObject({ threshold: 'HIGH', total: 2, counts: { CRITICAL: 1, HIGH: 1 } });
    expect(high!.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(high!.digest).toBe(false);
    expect(channelView('new_findings', n, channelThreshold({}))!.total).toBe(3);
    const lowOnly = mergeIntoDraft('new_findings', { counts: {}, items: [] }, [item('c', 'LOW')]);
    expect(channelView('new_findings', lowOnly, channelThreshold({ min_severity: 'HIGH' }))).toBe(
      null,
    );
  });

  it('more than 20 findings after the filter make a digest: 20 items, more = the rest', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => item(`x${i}`, i < 30 ? 'HIGH' : 'LOW'));
    const n = mergeIntoDraft('new_findings', { counts: {}, items: [] }, many);
    const all = channelView('new_findings', n, channelThreshold({}))!;
    expect(all).toMatchObject({ total: 10_000, digest: true, more: 9_980 });
    expect(all.items).toHaveLength(20);
    const high = channelView('new_findings', n, channelThreshold({ min_severity: 'HIGH' }))!;
    expect(high).toMatchObject({ total: 30, digest: true, more: 10, counts: { HIGH: 30 } });
    expect(high.items.every((i) => i.severity === 'HIGH')).toBe(true);
  });

  it('closures need notify_on_close; fixed findings of the fixed summary are not repeated there', () => {
    const closed = mergeIntoDraft('closed_findings', { counts: {}, items: [] }, [
      item('a', 'CRITICAL', 'fixed'),
      item('b', 'HIGH', 'false_positive'),
      item('c', 'LOW', 'fixed'),
    ]);
    const fixed = mergeIntoDraft('fixed_summary', { counts: {}, items: [] }, [
      item('a', 'CRITICAL', 'fixed'),
      item('c', 'LOW', 'fixed'),
    ]);
    expect(channelView('closed_findings', closed, channelThreshold({}))).toBe(null);
    const both = channelThreshold({ notify_on_close: true, fixed_min_severity: 'HIGH' });
    const view = channelView('closed_findings', closed, both)!;
    expect(view.items.map((i) => i.id)).toEqual(['b', 'c']);
    expect(view).toMatchObject({ total: 2, counts: { HIGH: 1, LOW: 1 } });
    const summary = channelView('fixed_summary', fixed, both)!;
    expect(summary.items.map((i) => i.id)).toEqual(['a']);
    expect(channelView('fixed_summary', fixed, channelThreshold({ notify_on_close: true }))).toBe(
      null,
    );
    const closeOnly = channelView(
      'closed_findings',
      closed,
      channelThreshold({ notify_on_close: true }),
    )!;
    expect(closeOnly.total).toBe(3);
  });

  it('unknown or missing severities in settings fall back to INFO / no summary', () => {
    expect(channelThreshold({ min_severity: 'SEVERE', fixed_min_severity: 7 })).toEqual({
      min_severity: 'INFO',
      notify_on_close: false,
      fixed_min_severity: null,
    });
  });
});
