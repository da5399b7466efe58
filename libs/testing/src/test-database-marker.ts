/**
 * Databases made for tests carry a comment, so that those of a finished run can be dropped
 * (tools/test.sh) and stale ones from runs that died found later:
 * `platform-test created=<epoch ms> state=<building|ready> run=<test run id>`.
 */
export type TestDatabaseState = 'building' | 'ready';

export interface TestDatabaseMarker {
  createdAt: number;
  state: TestDatabaseState;
  runId: string;
}

export function testDatabaseMarker(marker: TestDatabaseMarker): string {
  return `platform-test created=${marker.createdAt} state=${marker.state} run=${marker.runId}`;
}

export function parseTestDatabaseMarker(comment: string | null): TestDatabaseMarker | undefined {
  const match = /^platform-test created=(\d+) state=(building|ready) run=([a-z0-9_]+)$/.exec(
    comment ?? '',
  );
  if (!match) return undefined;
  return {
    createdAt: Number(match[1]),
    state: match[2] === 'ready' ? 'ready' : 'building',
    runId: match[3] ?? '',
  };
}
