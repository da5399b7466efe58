import { sendOversizedRequestLines } from '@platform/testing';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('Hostile input - 1 MB request lines in parallel', () => {
  // 200 connections each writing 1 MB on a shared 2-core machine.
  jest.setTimeout(120_000);

  it('answers every one of 200 parallel 1 MB URLs with its 431, none with a reset', async () => {
    const { hostname, port } = new URL(t.url);
    const outcomes = await sendOversizedRequestLines({
      host: hostname,
      port: Number(port),
      path: '/api/v1/version',
      parallel: 200,
      urlBytes: 1024 * 1024,
    });
    const wrong = outcomes.filter((o) => o.status !== 431);
    expect(wrong).toEqual([]);
    for (const outcome of outcomes) {
      expect(JSON.parse(outcome.body ?? '')).toEqual({
        error: 'request line and headers exceed 16 KiB',
        code: 'headers_too_large',
      });
    }
  });
});
