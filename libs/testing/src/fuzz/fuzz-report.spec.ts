import { formatFailureGroups, formatFuzzResult, groupFailures, logCause } from './fuzz-report';
import type { FuzzFailure, FuzzResult } from './fuzz-runner';

const failure = (over: Partial<FuzzFailure>): FuzzFailure => ({
  kind: 'server-error',
  route: 'GET /a',
  role: 'admin',
  variant: 'path id=nul',
  method: 'GET',
  path: '/a/%00',
  status: 500,
  requestId: 'fuzz-1-0',
  requestBody: '',
  responseBody: '{"code":"internal_error"}',
  detail: 'status 500',
  ...over,
});

const LOG = (id: string) =>
  `unhandled error: QueryFailedError: SELECT failed: SQLSTATE 22021 (${id})\n` +
  '    at PostgresQueryRunner.query (/x/node_modules/typeorm/q.js:1:1)\n' +
  '    at DevicesRepository.find (/work/main/apps/svc/src/devices.repository.ts:10:5)';

describe('groupFailures', () => {
  it('groups server errors by the logged error and its first frame in project code', () => {
    const logs: Record<string, string> = {
      'fuzz-1-0': LOG('3f2b8c1e-7d4a-4e5b-9c6d-0a1b2c3d4e5f'),
      'fuzz-1-1': LOG('00000000-0000-4000-8000-000000000000'),
      'fuzz-1-2':
        'panic recovered: RangeError: Maximum call stack size exceeded\n at x (/y.js:1:1)',
    };
    const groups = groupFailures(
      [
        failure({ requestId: 'fuzz-1-0' }),
        failure({ requestId: 'fuzz-1-1', route: 'GET /b', variant: 'query q=nul' }),
        failure({ requestId: 'fuzz-1-2', route: 'POST /c', variant: 'body nested-array-10000' }),
      ],
      (id) => logs[id],
    );
    expect(groups).toHaveLength(2);
    expect(groups[0]).toMatchObject({ count: 2, routes: ['GET /a', 'GET /b'] });
    expect(groups[0]?.cause).toContain('SQLSTATE 22021');
    expect(groups[0]?.cause).toContain('devices.repository.ts');
    expect(groups[1]?.cause).toContain('Maximum call stack size exceeded');
  });

  it('groups envelope failures by status and problem, stored changes by route and tables', () => {
    const groups = groupFailures([
      failure({ kind: 'envelope', status: 431, detail: 'no "code"', responseBody: 'x' }),
      failure({
        kind: 'envelope',
        status: 431,
        detail: 'no "code"',
        responseBody: 'x',
        route: 'GET /b',
      }),
      failure({ kind: 'stored-change', status: 400, detail: 'changed: users (rows 1 -> 2)' }),
    ]);
    expect(groups.map((g) => [g.kind, g.count])).toEqual([
      ['envelope', 2],
      ['stored-change', 1],
    ]);
  });

  it('keeps the message and a project frame of a logged error', () => {
    expect(logCause(LOG('3f2b8c1e-7d4a-4e5b-9c6d-0a1b2c3d4e5f'))).toBe(
      'unhandled error: QueryFailedError: SELECT failed: SQLSTATE 22021 (<id>) ' +
        'at DevicesRepository.find (/work/main/apps/svc/src/devices.repository.ts:10:5)',
    );
  });
});

describe('formatFuzzResult', () => {
  const result: FuzzResult = {
    service: 'svc',
    settings: { seed: 42, size: 'modest', requests: 3 },
    requests: 3,
    seconds: 1.5,
    timings: { requests: 1, digests: 0.4, fixtures: 0.1 },
    statuses: { '200': 1, '400': 1, '500': 1 },
    slowest: [{ route: 'GET /a', variant: 'valid', ms: 12 }],
    routes: [
      { route: 'GET /a', sent: 2, reached: 1 },
      { route: 'GET /b', sent: 1, reached: 0 },
    ],
    failures: [failure({})],
  };

  it('prints the seed, its reproduction, coverage, histogram and every failure', () => {
    const text = formatFuzzResult(result, 'apps/svc/test/fuzz', () => LOG('x'));
    expect(text).toContain('seed 42');
    expect(text).toContain(
      'FUZZ_SEED=42 FUZZ_SIZE=modest FUZZ_REQUESTS=3 npm test -- apps/svc/test/fuzz',
    );
    expect(text).toContain(
      'routes covered 2/2, past authentication and lookup 1/2 (not past: GET /b)',
    );
    expect(text).toContain('statuses: 200: 1, 400: 1, 500: 1');
    expect(text).toContain('[server-error] 500 GET /a/%00');
    expect(text).toContain('variant path id=nul');
    expect(text).toContain('SQLSTATE 22021');
    expect(formatFailureGroups(result, 'apps/svc/test/fuzz')).toContain('## svc: 1 root causes');
  });
});
