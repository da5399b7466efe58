import { ReportRunInfo } from './normalized-finding';
import { collect } from './testing/report-fixtures';
import { bufferReportSource } from './report-source';
import { readReport } from './read-report';
import { MAX_COVERAGE_ENTRIES } from './run-coverage';

/** Reads `doc` and returns the run infos announced through `onRun`, and those of the batches. */
async function runsOf(doc: object, oneShot = false): Promise<ReportRunInfo[]> {
  const runs: ReportRunInfo[] = [];
  const text = Buffer.from(JSON.stringify(doc));
  const source = oneShot
    ? (async function* () {
        yield text;
      })()
    : bufferReportSource(text);
  const batches = await collect(
    readReport(source, undefined, {}, { onRun: (run) => runs.push(run) }),
  );
  for (const batch of batches) expect(runs).toContain(batch.run);
  return runs;
}

const result = (uri: string, line = 1) => ({
  ruleId: 'r',
  message: { text: 'm' },
  locations: [
    {
      physicalLocation: {
        artifactLocation: { uri, uriBaseId: 'SRC' },
        region: { startLine: line },
      },
    },
  ],
});

describe('run coverage: SARIF', () => {
  const run = {
    tool: { driver: { name: 'Scan' } },
    originalUriBaseIds: {
      ROOT: { uri: 'file:///builds/shop/' },
      SRC: { uri: 'src/', uriBaseId: 'ROOT' },
    },
    artifacts: [
      { location: { uri: 'a.c', uriBaseId: 'SRC' } },
      { location: { uri: 'file:///builds/shop/lib/b.c' } },
      { location: { uri: 'dir\\c.c', uriBaseId: 'SRC' } },
      { location: { uri: 'a.c', uriBaseId: 'SRC' } },
      { location: { uri: 'HTTPS://Web.Example.test:8443/login?x=1' } },
      { location: { uri: 'tcp://10.0.0.5:22' } },
      { location: { uri: 'udp://DNS.example.test:53' } },
      { location: { uri: 'http://[2001:DB8::1]/' } },
      { contents: { text: 'no location' } },
      { location: { index: 1 } },
    ],
    invocations: [
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          {
            level: 'error',
            message: { text: 'parse error' },
            locations: [
              { physicalLocation: { artifactLocation: { uri: 'broken.c', uriBaseId: 'SRC' } } },
            ],
          },
          {
            level: 'warning',
            message: { text: 'slow' },
            locations: [
              { physicalLocation: { artifactLocation: { uri: 'slow.c', uriBaseId: 'SRC' } } },
            ],
          },
          {
            level: 'error',
            message: { text: 'by index' },
            locations: [{ physicalLocation: { artifactLocation: { index: 2 } } }],
          },
          { level: 'error', message: { text: 'no location' } },
        ],
      },
    ],
    results: [result('a.c', 3)],
  };

  it('lists the files, failed files and hosts as finding paths and hosts are normalized', async () => {
    const [info] = await runsOf({ version: '2.1.0', runs: [run] });
    expect(info.coverage).toEqual({
      incomplete: false,
      files: ['src/a.c', 'lib/b.c', 'src/dir/c.c'],
      failedFiles: ['src/broken.c', 'src/dir/c.c'],
      hosts: ['web.example.test', '10.0.0.5', 'dns.example.test', '[2001:db8::1]'],
    });
  });

  it('a finding path is spelled as its coverage entry', async () => {
    const batches = await collect(
      readReport(bufferReportSource(JSON.stringify({ version: '2.1.0', runs: [run] })), 'sarif'),
    );
    const [finding] = batches[0].findings;
    expect(finding.location).toMatchObject({ path: 'src/a.c' });
    expect(batches[0].run.coverage.files).toContain('src/a.c');
  });

  it('is incomplete when an invocation says the tool did not finish', async () => {
    const failed = {
      ...run,
      invocations: [{ executionSuccessful: true }, { executionSuccessful: false }],
    };
    const [info] = await runsOf({ version: '2.1.0', runs: [failed] });
    expect(info.coverage).toMatchObject({ incomplete: true, failedFiles: [] });
  });

  it('announces every run once, results or not, in order, also from a one-shot stream', async () => {
    const doc = {
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'Empty' } },
          artifacts: [{ location: { uri: 'clean.c' } }],
          results: [],
        },
        { tool: { driver: { name: 'Second' } }, results: [result('x.c')] },
        { tool: { driver: { name: 'Skipped tool' } }, results: null },
      ],
    };
    for (const oneShot of [false, true]) {
      const runs = await runsOf(doc, oneShot);
      expect(runs.map((r) => [r.run_index, r.scanner, r.coverage.files])).toEqual([
        [0, 'Empty', ['clean.c']],
        [1, 'Second', []],
        [2, 'Skipped tool', []],
      ]);
    }
  });

  it(`stops at ${MAX_COVERAGE_ENTRIES} files and marks the run incomplete`, async () => {
    const artifacts = Array.from({ length: MAX_COVERAGE_ENTRIES + 1 }, (_, i) => ({
      location: { uri: `f${i}` },
    }));
    const [info] = await runsOf({
      version: '2.1.0',
      runs: [{ tool: { driver: { name: 'Big' } }, artifacts, results: [] }],
    });
    expect(info.coverage.files).toHaveLength(MAX_COVERAGE_ENTRIES);
    expect(info.coverage.incomplete).toBe(true);
  });
});

describe('run coverage: SonarQube', () => {
  const issue = { key: 'k', rule: 'java:S1', component: 'shop:src/A.java', line: 1, message: 'm' };

  it('lists the file components (a path, or qualifier FIL / UTS) as finding paths are normalized', async () => {
    const [info] = await runsOf({
      issues: [issue],
      components: [
        { key: 'shop', qualifier: 'TRK', name: 'Shop' },
        { key: 'shop:src', qualifier: 'DIR', path: 'src' },
        { key: 'shop:src/A.java', qualifier: 'FIL', path: 'src/A.java' },
        { key: 'shop:src/test/ATest.java', qualifier: 'UTS' },
        { key: 'shop:./lib//B.java', path: './lib//B.java' },
      ],
    });
    expect(info.coverage).toEqual({
      incomplete: false,
      files: ['src/A.java', 'src/test/ATest.java', 'lib/B.java'],
      failedFiles: [],
      hosts: [],
    });
  });

  it.each([
    ['a later page', { paging: { pageIndex: 2, pageSize: 1, total: 2 } }],
    ['the first of several pages', { paging: { pageIndex: 1, pageSize: 1, total: 2 } }],
    ['the legacy paging members', { p: 1, ps: 1, total: 5 }],
  ])('is incomplete for %s of an export', async (_name, paging) => {
    const [info] = await runsOf({ issues: [issue], ...paging });
    expect(info.coverage.incomplete).toBe(true);
  });

  it('is complete when the page holds every issue', async () => {
    const [info] = await runsOf({
      issues: [issue],
      paging: { pageIndex: 1, pageSize: 100, total: 1 },
    });
    expect(info.coverage.incomplete).toBe(false);
  });
});
