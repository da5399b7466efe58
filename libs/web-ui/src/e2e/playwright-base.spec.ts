import { basePlaywrightConfig } from './playwright-base';

describe('basePlaywrightConfig', () => {
  const saved = process.env.E2E_TRACE_SNAPSHOTS;
  afterEach(() => {
    if (saved === undefined) delete process.env.E2E_TRACE_SNAPSHOTS;
    else process.env.E2E_TRACE_SNAPSHOTS = saved;
  });

  it('keeps a trace of a failed test without DOM snapshots or screencast by default', () => {
    delete process.env.E2E_TRACE_SNAPSHOTS;
    expect(basePlaywrightConfig('/out', 1).use?.trace).toEqual({
      mode: 'retain-on-failure',
      screenshots: false,
      snapshots: false,
    });
    expect(basePlaywrightConfig('/out', 1).use?.screenshot).toBe('only-on-failure');
  });

  it('records the DOM snapshots with E2E_TRACE_SNAPSHOTS=1', () => {
    process.env.E2E_TRACE_SNAPSHOTS = '1';
    expect(basePlaywrightConfig('/out', 1).use?.trace).toMatchObject({ snapshots: true });
  });
});
