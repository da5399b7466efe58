import { findingsOf, fixture, fixturePath, collect, oneShot } from './testing/report-fixtures';
import { bufferReportSource, fileReportSource } from './report-source';
import { readSarif } from './sarif-reader';

/** Report produced on this machine by Debian's flawfinder 2.0.19: `flawfinder --sarif vulnerable.c`. */
const REPORT = 'flawfinder-vulnerable.sarif';

describe('readSarif on a real flawfinder report', () => {
  it('yields every result with rule, lines, severity and CWE', async () => {
    const findings = await findingsOf(readSarif(fileReportSource(fixturePath(REPORT))));
    expect(
      findings.map((f) => [
        f.rule_id,
        f.location.kind === 'file' && f.location.start_line,
        f.severity,
      ]),
    ).toEqual([
      ['FF1013', 7, 'LOW'],
      ['FF1001', 8, 'HIGH'],
      ['FF1016', 9, 'HIGH'],
      ['FF1013', 13, 'LOW'],
      ['FF1014', 14, 'HIGH'],
      ['FF1013', 19, 'LOW'],
      ['FF1015', 20, 'HIGH'],
      ['FF1044', 21, 'HIGH'],
      ['FF1005', 25, 'HIGH'],
      ['FF1037', 26, 'MEDIUM'],
      ['FF1013', 31, 'LOW'],
    ]);
    const strcpy = findings[1];
    expect(strcpy).toMatchObject({
      rule_name: 'buffer/strcpy',
      title:
        'Does not check for buffer overflows when copying to destination [MS-banned] (CWE-120).',
      severity_source: 'result_level',
      location: {
        kind: 'file',
        path: 'vulnerable.c',
        start_line: 8,
        end_line: 8,
        snippet: '  strcpy(buffer, name);',
      },
      cwe: ['CWE-120'],
      scanner: 'Flawfinder',
      scanner_version: '2.0.19',
      suppressed: false,
      kind: 'fail',
    });
    expect(strcpy.description).toContain('buffer/strcpy:Does not check for buffer overflows');
    expect(strcpy.fingerprints.fingerprints['contextHash/v1']).toMatch(/^[0-9a-f]{64}$/);
    expect(findings.find((f) => f.rule_id === 'FF1014')?.cwe).toEqual(['CWE-120', 'CWE-20']);
    expect(findings.find((f) => f.rule_id === 'FF1044')?.cwe).toEqual(['CWE-78']);
    expect(new Set(findings.map((f) => f.identity)).size).toBe(11);
  });

  it('takes revision from the upload when the report has none', async () => {
    const [batch] = await collect(
      readSarif(fileReportSource(fixturePath(REPORT)), {
        commit_id: 'feedbeef',
        engine: 'ignored',
      }),
    );
    expect(batch.run).toEqual({
      format: 'sarif',
      run_index: 0,
      scanner: 'Flawfinder',
      scanner_version: '2.0.19',
      revision: 'feedbeef',
      // flawfinder lists no artifacts nor invocations: its run names nothing it looked at.
      coverage: { incomplete: false, files: [], failedFiles: [], hosts: [] },
    });
    expect(batch.findings.every((f) => f.revision === 'feedbeef')).toBe(true);
  });

  it('gives the same findings for any chunking and for a one-shot stream', async () => {
    const bytes = fixture(REPORT);
    const reference = await findingsOf(readSarif(bufferReportSource(bytes)));
    for (const size of [1, 3, 64, 1000]) {
      expect(await findingsOf(readSarif(bufferReportSource(bytes, size)))).toEqual(reference);
      expect(await findingsOf(readSarif(oneShot(bytes, size)))).toEqual(reference);
    }
  });

  it('batches by the configured size', async () => {
    const batches = await collect(
      readSarif(fileReportSource(fixturePath(REPORT)), {}, { batchSize: 4 }),
    );
    expect(batches.map((b) => b.findings.length)).toEqual([4, 4, 3]);
  });
});
