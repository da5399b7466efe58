import { MAX_NESTING } from './json-structure-scanner';
import { FindingBatch } from './normalized-finding';
import { collect, oneShot, rejectionOf } from './testing/report-fixtures';
import { ReportParseError } from './report-parse.errors';
import { bufferReportSource, ReportSource } from './report-source';
import { addWarnings, IgnoredValues, ResultWarnings } from './result-warnings';
import { readSarif } from './sarif-reader';

const file = { artifactLocation: { uri: 'src/a.c' } };
const at = (region: object) => [{ physicalLocation: { ...file, region } }];
const ok = (text: string, extra: object = {}) => ({ ruleId: 'r', message: { text }, ...extra });

function sarif(results: unknown, run: object = {}): string {
  return JSON.stringify({
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'T', rules: [{ id: 'r' }] } }, ...run, results }],
  });
}

function sources(text: string): [string, ReportSource | AsyncIterable<Buffer>][] {
  return [
    ['file', bufferReportSource(text)],
    ['one-shot stream', oneShot(Buffer.from(text), 7)],
  ];
}

function skippedOf(batches: FindingBatch[]): ResultWarnings {
  const total: ResultWarnings = {};
  for (const batch of batches) addWarnings(total, batch.skipped);
  return total;
}

function ignoredOf(batches: FindingBatch[]): IgnoredValues {
  const total: IgnoredValues = {};
  for (const batch of batches) addWarnings(total, batch.ignored);
  return total;
}

async function failure(text: string): Promise<ReportParseError> {
  const error = await rejectionOf(collect(readSarif(bufferReportSource(text))));
  if (!(error instanceof ReportParseError)) throw error;
  return error;
}

describe('readSarif: SARIF 2.1.0 structure', () => {
  it.each([
    ['{"version":"2.1.0","runs":{}}', 'runs'],
    ['{"version":"2.1.0","runs":"x"}', 'runs'],
    ['{"version":"2.1.0","runs":[1]}', 'runs[0]'],
    [sarif({ a: 1 }), 'runs[0].results'],
    [sarif('results'), 'runs[0].results'],
    [sarif(3), 'runs[0].results'],
    ['{"version":"2.1.0","runs":[{"results":[],"tool":[]}]}', 'runs[0].tool'],
    ['{"version":"2.1.0","runs":[{"tool":{"driver":"t"}}]}', 'runs[0].tool.driver'],
    ['{"version":"2.1.0","runs":[{"tool":{"driver":{"rules":{}}}}]}', 'runs[0].tool.driver.rules'],
    [
      '{"version":"2.1.0","runs":[{"tool":{"driver":{"rules":[{},7]}}}]}',
      'runs[0].tool.driver.rules[1]',
    ],
    ['{"version":"2.1.0","runs":[{"tool":{"extensions":{}}}]}', 'runs[0].tool.extensions'],
    ['{"version":"2.1.0","runs":[{"artifacts":{}}]}', 'runs[0].artifacts'],
    ['{"version":"2.1.0","runs":[{"invocations":[3]}]}', 'runs[0].invocations[0]'],
    [
      '{"version":"2.1.0","runs":[{"originalUriBaseIds":{"SRC":"x"}}]}',
      'runs[0].originalUriBaseIds',
    ],
    [
      '{"version":"2.1.0","runs":[{"versionControlProvenance":{}}]}',
      'runs[0].versionControlProvenance',
    ],
  ])('fails %s as report_structure_invalid at %s', async (text, path) => {
    for (const [, input] of sources(text)) {
      const error = await rejectionOf(collect(readSarif(input)));
      expect(error).toBeInstanceOf(ReportParseError);
      expect(error).toMatchObject({ code: 'report_structure_invalid', details: { path } });
    }
  });

  it('reads `results: null` and absent optional members as empty', async () => {
    expect(await collect(readSarif(bufferReportSource(sarif(null))))).toEqual([]);
    const bare = '{"version":"2.1.0","runs":[{"tool":null,"results":[{"message":{"text":"x"}}]}]}';
    const [batch] = await collect(readSarif(bufferReportSource(bare)));
    expect(batch.findings).toHaveLength(1);
    expect(batch.run.scanner).toBe('unknown');
  });
});

describe('readSarif: results that cannot be stored are skipped and counted', () => {
  const invalid: [string, object, string][] = [
    ['a number', 7 as unknown as object, 'result_not_object'],
    [
      'ruleId not a string, no other rule',
      { ruleId: 12, message: { text: 'x' } },
      'result_rule_invalid',
    ],
    [
      'rule not an object, no other rule',
      { rule: 'r', message: { text: 'x' } },
      'result_rule_invalid',
    ],
    ['locations not an array', ok('x', { locations: {} }), 'result_location_invalid'],
    ['location not an object', ok('x', { locations: [1] }), 'result_location_invalid'],
    [
      'physicalLocation not an object',
      ok('x', { locations: [{ physicalLocation: 'a.c' }] }),
      'result_location_invalid',
    ],
    [
      'uri not a string',
      ok('x', { locations: [{ physicalLocation: { artifactLocation: { uri: 5 } } }] }),
      'result_location_invalid',
    ],
    [
      'artifact index fractional and no uri',
      ok('x', { locations: [{ physicalLocation: { artifactLocation: { index: 0.5 } } }] }),
      'result_location_invalid',
    ],
    [
      'region not an object',
      ok('x', { locations: [{ physicalLocation: { ...file, region: 3 } }] }),
      'result_location_invalid',
    ],
    [
      'logicalLocations not an array and no physical location',
      ok('x', { locations: [{ logicalLocations: { name: 'f' } }] }),
      'result_location_invalid',
    ],
    ['startLine 0', ok('x', { locations: at({ startLine: 0 }) }), 'result_region_invalid'],
    ['negative startLine', ok('x', { locations: at({ startLine: -3 }) }), 'result_region_invalid'],
    [
      'fractional startLine',
      ok('x', { locations: at({ startLine: 1.5 }) }),
      'result_region_invalid',
    ],
    ['startLine 2^53', ok('x', { locations: at({ startLine: 2 ** 53 }) }), 'result_region_invalid'],
    [
      'startLine past int4',
      ok('x', { locations: at({ startLine: 2 ** 31 }) }),
      'result_region_invalid',
    ],
    [
      'startLine as a string',
      ok('x', { locations: at({ startLine: '3' }) }),
      'result_region_invalid',
    ],
    [
      'endLine 0',
      ok('x', { locations: at({ startLine: 1, endLine: 0 }) }),
      'result_region_invalid',
    ],
    ['port 0', ok('x', { properties: { host: 'h', port: 0 } }), 'result_network_invalid'],
    ['port 2^40', ok('x', { properties: { host: 'h', port: 2 ** 40 } }), 'result_network_invalid'],
    [
      'port text',
      ok('x', { properties: { ip: '10.0.0.1', port: 'ssh' } }),
      'result_network_invalid',
    ],
    [
      'long protocol',
      ok('x', { properties: { host: 'h', port: 1, protocol: 'x'.repeat(17) } }),
      'result_network_invalid',
    ],
    [
      'tcp:// port past 65535',
      ok('x', {
        locations: [{ physicalLocation: { artifactLocation: { uri: 'tcp://h:99999' } } }],
      }),
      'result_network_invalid',
    ],
  ];

  it.each(invalid)('%s', async (_name, result, code) => {
    for (const [, input] of sources(sarif([ok('kept before'), result, ok('kept after')]))) {
      const batches = await collect(readSarif(input));
      expect(batches.flatMap((b) => b.findings.map((f) => f.description))).toEqual([
        'kept before',
        'kept after',
      ]);
      expect(skippedOf(batches)).toEqual({ [code]: 1 });
      expect(ignoredOf(batches)).toEqual({});
    }
  });

  it('accepts the limits and null as absent', async () => {
    const results = [
      ok('limits', { locations: at({ startLine: 2 ** 31 - 1, endColumn: 2 ** 31 - 1 }) }),
      ok('nulls', {
        level: null,
        kind: null,
        baselineState: null,
        properties: null,
        locations: null,
      }),
      ok('port', { properties: { host: 'h', port: '65535', protocol: 'x'.repeat(16) } }),
      ok('none', { level: 'none' }),
    ];
    const batches = await collect(readSarif(bufferReportSource(sarif(results))));
    expect(skippedOf(batches)).toEqual({});
    const findings = batches.flatMap((b) => b.findings);
    expect(findings).toHaveLength(4);
    expect(findings[0].location).toMatchObject({ start_line: 2 ** 31 - 1 });
    expect(findings[2].location).toMatchObject({ kind: 'network', port: 65535 });
    expect(findings[3].severity).toBe('INFO');
  });

  it('counts skipped results on the next batch, and in a batch of their own at the end', async () => {
    const bad = ok('x', { locations: at({ startLine: 0 }) });
    const results = [bad, ok('1'), ok('2'), bad, bad, ok('3'), bad];
    const batches = await collect(
      readSarif(bufferReportSource(sarif(results)), {}, { batchSize: 2 }),
    );
    expect(batches.map((b) => [b.findings.length, b.skipped])).toEqual([
      [2, { result_region_invalid: 1 }],
      [1, { result_region_invalid: 3 }],
    ]);
    const onlyBad = await collect(readSarif(bufferReportSource(sarif([bad, bad]))));
    expect(onlyBad).toHaveLength(1);
    expect(onlyBad[0]).toMatchObject({
      findings: [],
      resighted: [],
      skipped: { result_region_invalid: 2 },
      run: { scanner: 'T' },
    });
  });

  it('a re-sighting memo never hides a skipped result (its digest was never stored)', async () => {
    const text = sarif([ok('a'), ok('x', { locations: at({ startLine: 0 }) })]);
    const first = await collect(readSarif(bufferReportSource(text)));
    const digests = new Map(first[0].findings.map((f) => [f.content_digest, 'finding-a']));
    const again = await collect(
      readSarif(
        bufferReportSource(text),
        {},
        {
          memo: () => Promise.resolve({ findingOf: (d: string) => digests.get(d) }),
        },
      ),
    );
    expect(again[0].resighted.map((r) => r.finding_id)).toEqual(['finding-a']);
    expect(skippedOf(again)).toEqual({ result_region_invalid: 1 });
  });
});

describe('readSarif: values a finding can do without are ignored with a warning, never a skipped result', () => {
  const region = { startLine: 4 };
  const cases: [string, object, Record<string, number>, object][] = [
    [
      'baselineState `existing` (SARIF drafts) read as unchanged',
      ok('x', { baselineState: 'existing' }),
      { result_baseline_state_mapped: 1 },
      { baseline_state: 'unchanged' },
    ],
    [
      'baselineState in another case',
      ok('x', { baselineState: 'Updated' }),
      { result_baseline_state_mapped: 1 },
      { baseline_state: 'updated' },
    ],
    [
      'unknown baselineState dropped',
      ok('x', { baselineState: 'bogus' }),
      { result_baseline_state_ignored: 1 },
      { baseline_state: undefined },
    ],
    [
      'level outside the enum: the effective level (rule level, else warning)',
      ok('x', { level: 'critical' }),
      { result_level_ignored: 1 },
      { severity: 'MEDIUM', severity_source: 'level_default' },
    ],
    [
      'level not a string',
      ok('x', { level: 3 }),
      { result_level_ignored: 1 },
      { severity: 'MEDIUM' },
    ],
    [
      'level in another case',
      ok('x', { level: 'Warning' }),
      { result_level_mapped: 1 },
      { severity: 'MEDIUM', severity_source: 'result_level' },
    ],
    [
      'unknown kind: fail',
      ok('x', { kind: 'weird' }),
      { result_kind_ignored: 1 },
      { kind: 'fail' },
    ],
    [
      'kind in another case',
      ok('x', { kind: 'Pass' }),
      { result_kind_mapped: 1 },
      { kind: 'pass' },
    ],
    [
      'fractional ruleIndex beside a ruleId',
      ok('x', { ruleIndex: 0.5 }),
      { result_rule_ignored: 1 },
      { rule_id: 'r' },
    ],
    [
      'ruleId not a string, rule found by index',
      { ruleId: 12, ruleIndex: 0, message: { text: 'x' } },
      { result_rule_ignored: 1 },
      { rule_id: 'r' },
    ],
    [
      'message a string: read as its text',
      { ruleId: 'r', message: 'x' },
      { result_message_mapped: 1 },
      { description: 'x' },
    ],
    [
      'properties an array',
      ok('x', { properties: [] }),
      { result_properties_ignored: 1 },
      { properties: {} },
    ],
    [
      'location properties a string',
      ok('x', { locations: [{ physicalLocation: { ...file, region }, properties: 'p' }] }),
      { result_properties_ignored: 1 },
      { location: { kind: 'file', path: 'src/a.c', start_line: 4, end_line: 4 } },
    ],
    [
      'fingerprints a string',
      ok('x', { fingerprints: 'f', partialFingerprints: [1] }),
      { result_fingerprints_ignored: 1 },
      { fingerprints: { fingerprints: {}, partial_fingerprints: {} } },
    ],
    [
      'columns and contextRegion of the wrong type',
      ok('x', {
        locations: [
          {
            physicalLocation: {
              ...file,
              region: { ...region, startColumn: 0, endColumn: 2 ** 53 },
              contextRegion: 'c',
            },
          },
        ],
      }),
      { result_location_detail_ignored: 1 },
      { location: { kind: 'file', path: 'src/a.c', start_line: 4, end_line: 4 } },
    ],
    [
      'uriBaseId not a string: the uri as written',
      ok('x', {
        locations: [{ physicalLocation: { artifactLocation: { uri: 'a.c', uriBaseId: 3 } } }],
      }),
      { result_location_detail_ignored: 1 },
      { location: { kind: 'file', path: 'a.c' } },
    ],
    [
      'logicalLocations not an array beside a physical location',
      ok('x', { locations: [{ physicalLocation: { ...file, region }, logicalLocations: 'f' }] }),
      { result_location_detail_ignored: 1 },
      { location: { kind: 'file', path: 'src/a.c', start_line: 4, end_line: 4 } },
    ],
    [
      'suppressions and taxa not arrays',
      ok('x', { suppressions: { kind: 'inSource' }, taxa: 'CWE-79' }),
      { result_member_ignored: 1 },
      { suppressed: false, cwe: [] },
    ],
    [
      'members SARIF 2.1.0 does not define',
      ok('x', { ruleMessageId: 'default', toolFingerprintContributions: {} }),
      { result_member_unknown: 1 },
      { description: 'x' },
    ],
  ];

  it.each(cases)('%s', async (_name, result, ignored, expected) => {
    for (const [, input] of sources(sarif([ok('before'), result, ok('after')]))) {
      const batches = await collect(readSarif(input));
      const findings = batches.flatMap((b) => b.findings);
      expect(findings).toHaveLength(3);
      const dropped = Object.keys(expected).filter(
        (k) => expected[k as keyof object] === undefined,
      );
      for (const key of dropped) expect(findings[1]).not.toHaveProperty(key);
      expect(findings[1]).toMatchObject(
        Object.fromEntries(Object.entries(expected).filter(([, v]) => v !== undefined)),
      );
      expect(skippedOf(batches)).toEqual({});
      expect(ignoredOf(batches)).toEqual(ignored);
    }
  });

  it('the appendix K shape (baselineState existing) completes with its findings', async () => {
    const results = ['existing', 'new', 'existing'].map((state, i) =>
      ok(`r${i}`, { baselineState: state, level: 'error', locations: at({ startLine: i + 1 }) }),
    );
    const batches = await collect(readSarif(bufferReportSource(sarif(results))));
    expect(batches.flatMap((b) => b.findings.map((f) => f.baseline_state))).toEqual([
      'unchanged',
      'new',
      'unchanged',
    ]);
    expect(ignoredOf(batches)).toEqual({ result_baseline_state_mapped: 2 });
  });

  it('counts a result once per code, and a skipped result never counts its ignored values', async () => {
    const results = [
      ok('a', { level: 'x', kind: 'y', properties: [], fingerprints: 1 }),
      ok('b', { level: 'x', locations: at({ startLine: 0 }) }),
    ];
    const batches = await collect(readSarif(bufferReportSource(sarif(results))));
    expect(skippedOf(batches)).toEqual({ result_region_invalid: 1 });
    expect(ignoredOf(batches)).toEqual({
      result_level_ignored: 1,
      result_kind_ignored: 1,
      result_properties_ignored: 1,
      result_fingerprints_ignored: 1,
    });
  });

  it('a result with an ignored value gets no content digest (its warnings are counted on every sighting)', async () => {
    const text = sarif([ok('clean'), ok('mapped', { baselineState: 'existing' })]);
    const [batch] = await collect(readSarif(bufferReportSource(text)));
    expect(batch.findings.map((f) => f.content_digest === undefined)).toEqual([false, true]);
  });
});

describe('readSarif: nesting depth', () => {
  function nested(depth: number): string {
    return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  }
  // root object, runs, run, results, result, properties: the value starts 6 levels deep.
  const reportWith = (depth: number) =>
    `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[{"message":{"text":"x"},"properties":{"d":${nested(depth)}}}]}]}`;

  it(`accepts ${MAX_NESTING} levels`, async () => {
    const batches = await collect(readSarif(bufferReportSource(reportWith(MAX_NESTING - 6))));
    expect(batches[0].findings).toHaveLength(1);
  });

  it('fails deeper reports as report_nesting_too_deep with the offset (never a stack overflow)', async () => {
    for (const depth of [MAX_NESTING - 5, 100_000]) {
      const text = reportWith(depth);
      const error = await failure(text);
      const offset = text.indexOf('['.repeat(MAX_NESTING - 5)) + MAX_NESTING - 6;
      expect(error).toMatchObject({
        code: 'report_nesting_too_deep',
        details: { offset, limit: MAX_NESTING },
      });
    }
  });

  it('applies to the run metadata too', async () => {
    const text = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t","x":${nested(100_000)}}}}]}`;
    expect((await failure(text)).code).toBe('report_nesting_too_deep');
  });
});
