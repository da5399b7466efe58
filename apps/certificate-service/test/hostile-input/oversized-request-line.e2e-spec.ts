import type { AddressInfo } from 'node:net';
import { sendOversizedRequestLines } from '@platform/testing';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen(0, '127.0.0.1');
  port = (t.app.getHttpServer().address() as AddressInfo).port;
});
afterAll(() => t.close());

describe('Hostile input - 1 MB request lines in parallel', () => {
  // 200 connections each writing 1 MB on a shared 2-core machine.
  jest.setTimeout(120_000);

  it('answers every one of 200 parallel 1 MB URLs with its 431, none with a reset', async () => {
    const outcomes = await sendOversizedRequestLines({
      host: '127.0.0.1',
      port,
      path: '/api/v1/version',
      parallel: 200,
      urlBytes: 1024 * 1024,
    });
    const wrong = outcomes.filter((o) => o.status !== 431);
    expect(wrong).toEqual([]);
    for (const outcome of outcomes) {
      expect(JSON.parse(outcome.body ?? '')).toEqual({
        code: 'headers_too_large',
        message: 'request line and headers exceed 16 KiB',
      });
    }
  });
});
