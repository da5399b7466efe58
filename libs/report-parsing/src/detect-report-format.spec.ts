import { DETECTION_PREFIX_BYTES, detectReportFormat } from './detect-report-format';
import { findingsOf, fixture, fixturePath, oneShot, rejectionOf } from './testing/report-fixtures';
import { ReportParseError } from './report-parse.errors';
import { bufferReportSource, fileReportSource } from './report-source';
import { readReport } from './read-report';

function refusal(bytes: Buffer): ReportParseError {
  try {
    detectReportFormat(bytes);
  } catch (error) {
    if (error instanceof ReportParseError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('detectReportFormat', () => {
  it('detects the fixtures', () => {
    expect(detectReportFormat(fixture('flawfinder-vulnerable.sarif'))).toBe('sarif');
    expect(detectReportFormat(fixture('sarif-all-cases.sarif'))).toBe('sarif');
    expect(detectReportFormat(fixture('sonarqube-issues.json'))).toBe('sonarqube');
    expect(detectReportFormat(fixture('sonarqube-generic.json'))).toBe('sonarqube');
  });

  it('decides from a prefix and from top-level keys only', () => {
    expect(detectReportFormat('{"runs":[{"results":[{"issues":')).toBe('sarif');
    expect(
      detectReportFormat('\uFEFF {"$schema":"https://json.schemastore.org/sarif-2.1.0.json"'),
    ).toBe('sarif');
    expect(detectReportFormat('{"version":"2.1.0"')).toBe('sarif');
    expect(detectReportFormat('{"total":1,"issues":[{"runs":1')).toBe('sonarqube');
    expect(detectReportFormat('{"meta":{"runs":[]},"hotspots":[')).toBe('sonarqube');
  });

  it('detects a sonar-report export whose rules object runs past the prefix', () => {
    const rules = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [
        `java:S${i}`,
        { name: `rule ${i}`, htmlDesc: `<p>${'x'.repeat(300)}</p>`, severity: 'MAJOR' },
      ]),
    );
    const text = JSON.stringify({ date: 'd', sonarComponent: 'shop', rules, issues: [] });
    expect(text.indexOf('"issues"')).toBeGreaterThan(DETECTION_PREFIX_BYTES);
    expect(detectReportFormat(Buffer.from(text).subarray(0, DETECTION_PREFIX_BYTES))).toBe(
      'sonarqube',
    );
  });

  it('cannot tell for other content', () => {
    expect(detectReportFormat('<xml/>')).toBeUndefined();
    expect(detectReportFormat('{"foo":1}')).toBeUndefined();
    expect(detectReportFormat('')).toBeUndefined();
  });

  it.each([
    ['zip', [0x50, 0x4b, 0x03, 0x04, 0x14]],
    ['gzip', [0x1f, 0x8b, 0x08, 0x00]],
    ['7z', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00]],
    ['rar', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01]],
    ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
    ['bzip2', [0x42, 0x5a, 0x68, 0x39]],
  ])('refuses a %s archive', (name, magic) => {
    const error = refusal(Buffer.from(magic));
    expect(error).toMatchObject({ code: 'report_archive_refused', details: { archive: name } });
  });

  it('refuses UTF-16 content with its own code (a UTF-8 byte order mark is skipped)', () => {
    const sarif = '{"version":"2.1.0","runs":[]}';
    for (const encoding of ['utf16le'] as const) {
      const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sarif, encoding)]);
      expect(refusal(bytes).code).toBe('report_encoding_unsupported');
    }
    const bigEndian = Buffer.from(Buffer.from(`\uFEFF${sarif}`, 'utf16le').swap16());
    expect(refusal(bigEndian).code).toBe('report_encoding_unsupported');
    expect(detectReportFormat(Buffer.from(`\uFEFF${sarif}`))).toBe('sarif');
  });

  it('refuses a tar archive (ustar at offset 257)', () => {
    const tar = Buffer.alloc(512);
    tar.write('report.sarif', 0);
    tar.write('ustar', 257);
    expect(refusal(tar).code).toBe('report_archive_refused');
  });
});

describe('readReport', () => {
  it('detects the format when none is given (reopenable and one-shot)', async () => {
    const sarif = await findingsOf(
      readReport(fileReportSource(fixturePath('flawfinder-vulnerable.sarif')), undefined),
    );
    expect(sarif).toHaveLength(11);
    const oneShotSarif = await findingsOf(
      readReport(oneShot(fixture('flawfinder-vulnerable.sarif'), 100), undefined),
    );
    expect(oneShotSarif).toEqual(sarif);
    const sonar = await findingsOf(
      readReport(oneShot(fixture('sonarqube-issues.json'), 100), undefined),
    );
    expect(sonar).toHaveLength(6);
  });

  it('honours an explicit format', async () => {
    const error = await rejectionOf(
      findingsOf(readReport(fileReportSource(fixturePath('sonarqube-issues.json')), 'sarif')),
    );
    expect(error).toMatchObject({ code: 'report_unsupported' });
  });

  it('refuses archives and unknown content', async () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]);
    expect(
      await rejectionOf(findingsOf(readReport(bufferReportSource(zip), undefined))),
    ).toMatchObject({
      code: 'report_archive_refused',
    });
    expect(
      await rejectionOf(findingsOf(readReport(bufferReportSource('{"a":1}'), undefined))),
    ).toMatchObject({
      code: 'report_format_unknown',
    });
  });

  it.each([
    [
      'sarif',
      '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[{"message":{"text":"m"}}]}]}',
    ],
    ['sonarqube', '{"issues":[{"rule":"r","message":"m","component":"p:a.c","line":3}]}'],
  ] as const)(
    'reads a %s report that starts with a UTF-8 byte order mark, detected or named',
    async (format, text) => {
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`\r\n${text}`)]);
      for (const named of [undefined, format]) {
        for (const chunk of [1, 2, 5, 1 << 20]) {
          for (const input of [bufferReportSource(bytes, chunk), oneShot(bytes, chunk)]) {
            const [finding] = await findingsOf(readReport(input, named));
            expect(finding.description).toBe('m');
          }
        }
      }
    },
  );

  it('refuses a UTF-16 report named as SARIF as report_encoding_unsupported', async () => {
    const bytes = Buffer.from('\uFEFF{"version":"2.1.0","runs":[]}', 'utf16le');
    expect(
      await rejectionOf(findingsOf(readReport(bufferReportSource(bytes), 'sarif'))),
    ).toMatchObject({ code: 'report_encoding_unsupported' });
  });
});
