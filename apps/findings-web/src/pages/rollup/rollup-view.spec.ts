import { readRollupView, rollupSelection, writeRollupView } from './rollup-view';

describe('roll-up view in the URL', () => {
  it('reads the defaults: package, by total, descending', () => {
    const view = readRollupView(new URLSearchParams(''));
    expect(view).toMatchObject({ axis: 'package', sort: 'total', order: 'desc' });
    expect(view.key).toBeUndefined();
  });

  it('round-trips axis, sort, order, the open row and the list filters', () => {
    const params = new URLSearchParams('axis=host&by=critical&dir=asc&key=web-1&severity=HIGH');
    const view = readRollupView(params);
    expect(view).toMatchObject({ axis: 'host', sort: 'critical', order: 'asc', key: 'web-1' });
    expect(rollupSelection(view)).toEqual({ severity: 'HIGH' });
    expect(readRollupView(writeRollupView(view))).toEqual(view);
  });

  it('sorting by key defaults to ascending; unknown values fall back', () => {
    expect(readRollupView(new URLSearchParams('by=key')).order).toBe('asc');
    expect(readRollupView(new URLSearchParams('axis=rule&by=nope'))).toMatchObject({
      axis: 'package',
      sort: 'total',
    });
  });

  it('query mode sends q alone', () => {
    const view = readRollupView(new URLSearchParams('mode=query&q=severity:critical&severity=LOW'));
    expect(rollupSelection(view)).toEqual({ q: 'severity:critical' });
  });
});
