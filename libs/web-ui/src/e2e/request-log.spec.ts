import { RequestLog } from './request-log';

describe('RequestLog', () => {
  let clock = 0;
  const log = () => new RequestLog(3, () => clock);
  beforeEach(() => {
    clock = 1_000;
  });

  it('lists the pages and the requests still open first, oldest first, by path only', () => {
    const requests = log();
    const chunk = {};
    const list = {};
    const done = {};
    requests.started(list, {
      method: 'GET',
      url: 'http://127.0.0.1:4000/api/v1/findings?limit=100',
      type: 'fetch',
    });
    clock = 1_010;
    requests.started(chunk, {
      method: 'GET',
      url: 'http://127.0.0.1:4000/assets/FindingPage-x1.js',
      type: 'script',
    });
    requests.started(done, { method: 'GET', url: 'http://127.0.0.1:4000/version', type: 'fetch' });
    requests.answered(list, 200);
    clock = 1_030;
    requests.finished(done);
    clock = 46_010;

    const lines = requests.report(['http://127.0.0.1:4000/findings?product_id=p']).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'pages: /findings?product_id=p',
      'open requests: 2',
      '  open 45010 ms GET /api/v1/findings?limit=100 (fetch, 200, body not done)',
      '  open 45000 ms GET /assets/FindingPage-x1.js (script, no answer)',
      'last 1 ended, oldest first:',
    ]);
    expect(lines[5]).toBe('  20 ms GET /version (fetch) ?');
  });

  it('keeps the last ended requests with their status or failure, and forgets older ones', () => {
    const requests = log();
    for (let i = 0; i < 5; i++) {
      const key = {};
      requests.started(key, { method: 'POST', url: `http://h/r${i}`, type: 'xhr' });
      requests.answered(key, 201);
      clock += 5;
      requests.finished(key, i === 4 ? 'net::ERR_ABORTED' : undefined);
    }
    requests.finished({}); // never seen: ignored
    expect(requests.report([]).split('\n').slice(0, 6)).toEqual([
      'pages: (none)',
      'open requests: 0',
      'last 3 ended, oldest first:',
      '  5 ms POST /r2 (xhr) 201',
      '  5 ms POST /r3 (xhr) 201',
      '  5 ms POST /r4 (xhr) net::ERR_ABORTED',
    ]);
  });

  it('does not turn a data or blob address into a path', () => {
    const requests = log();
    requests.started({}, { method: 'GET', url: 'data:image/png;base64,AAAA', type: 'image' });
    expect(requests.report(['about:blank'])).toContain('pages: about:blank\nopen requests: 1\n');
    expect(requests.report([])).toContain('GET data:image/png;base64,AAAA (image, no answer)');
  });
});
