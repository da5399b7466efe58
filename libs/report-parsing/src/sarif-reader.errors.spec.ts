import { findingsOf, fixture, fixturePath, oneShot, rejectionOf } from './testing/report-fixtures';
import { ReportParseError } from './report-parse.errors';
import { bufferReportSource, fileReportSource } from './report-source';
import { readSarif } from './sarif-reader';

async function failure(input: Parameters<typeof readSarif>[0]): Promise<ReportParseError> {
  const error = await rejectionOf(findingsOf(readSarif(input)));
  if (!(error instanceof ReportParseError)) throw error;
  return error;
}

describe('readSarif errors', () => {
  it('reports malformed JSON with the byte offset, before yielding anything', async () => {
    const bytes = fixture('malformed.sarif');
    const offset = bytes.indexOf('{\n          "ruleId": "FF1001"');
    const error = await failure(fileReportSource(fixturePath('malformed.sarif')));
    expect(error.code).toBe('report_malformed');
    expect(error.message).toBe(`malformed JSON at byte ${offset}: expected ',' or ']', found '{'`);
    expect(error.details).toEqual({ offset });
  });

  it('reports a truncated file as malformed at its end', async () => {
    const size = fixture('truncated.sarif').length;
    for (const input of [
      fileReportSource(fixturePath('truncated.sarif')),
      oneShot(fixture('truncated.sarif'), 500),
    ]) {
      const error = await failure(input);
      expect(error.code).toBe('report_malformed');
      expect(error.message).toBe(
        `malformed JSON at byte ${size}: unexpected end of input (truncated report?)`,
      );
    }
  });

  it('reports a syntax error inside a result with its absolute offset', async () => {
    const text =
      '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[{"ruleId": tru}]}]}';
    const error = await failure(bufferReportSource(text));
    expect(error.code).toBe('report_malformed');
    expect(error.message).toMatch(/^malformed JSON at byte 70: /);
  });

  it.each([
    ['{"runs":[]}', 'not a SARIF 2.x log: no `version` member'],
    ['{"version":"2.1.0"}', 'not a SARIF log: no `runs` member'],
    ['[1,2]', 'not a SARIF log: the report is not a JSON object'],
  ])('refuses %s as unsupported', async (text, message) => {
    const error = await failure(bufferReportSource(text));
    expect(error).toMatchObject({ code: 'report_unsupported', message });
  });

  it('refuses a SARIF version other than 2.x with its own code, naming the version', async () => {
    for (const input of [
      bufferReportSource('{"version":"1.0.0","runs":[]}'),
      fileReportSource(fixturePath('unsupported-version.sarif')),
    ]) {
      expect(await failure(input)).toMatchObject({
        code: 'report_version_unsupported',
        message: 'SARIF version 1.0.0 is not supported: only SARIF 2.1.0 is read',
        details: { version: '1.0.0' },
      });
    }
  });

  // SARIF 2.0.0 and its committee drafts: `tool` had name/fullName/version itself,
  // `originalUriBaseIds` values were plain URI strings, `files` instead of `artifacts`.
  const sarif20 = (version: string, schema: string) =>
    JSON.stringify({
      $schema: schema,
      version,
      runs: [
        {
          tool: { name: 'Converter', fullName: 'Converter 3.1', version: '3.1' },
          originalUriBaseIds: { SRCROOT: 'file:///work/src/' },
          files: { 'src/a.c': { mimeType: 'text/x-c' } },
          results: [
            {
              ruleId: 'C1',
              level: 'warning',
              message: { text: 'first' },
              locations: [
                {
                  physicalLocation: {
                    fileLocation: { uri: 'src/a.c', uriBaseId: 'SRCROOT' },
                    region: { startLine: 3 },
                  },
                },
              ],
            },
          ],
        },
      ],
    });

  it.each([
    ['2.0.0', 'http://json.schemastore.org/sarif-2.0.0'],
    [
      '2.0.0-csd.2.beta.2019-01-24',
      'https://schemastore.azurewebsites.net/schemas/json/sarif-2.0.0-csd.2.beta.2019-01-24.json',
    ],
    ['2.1.1', 'https://json.schemastore.org/sarif-2.1.0.json'],
  ])(
    'refuses SARIF %s as sarif_version_unsupported before reading any result (never partly)',
    async (version, schema) => {
      for (const input of [
        bufferReportSource(sarif20(version, schema)),
        oneShot(Buffer.from(sarif20(version, schema)), 40),
      ]) {
        expect(await failure(input)).toMatchObject({
          code: 'sarif_version_unsupported',
          message: `SARIF version ${version} is not supported: only SARIF 2.1.0 is read`,
          details: { version },
        });
      }
    },
  );

  it('refuses a 2.0 log without a version member by its $schema', async () => {
    const text = '{"$schema":"http://json.schemastore.org/sarif-2.0.0","runs":[]}';
    expect(await failure(bufferReportSource(text))).toMatchObject({
      code: 'sarif_version_unsupported',
      details: { version: '2.0.0' },
    });
  });

  it('names a version only when it is a plain version string', async () => {
    const error = await failure(bufferReportSource('{"version":"2.0 <b>x</b>","runs":[]}'));
    expect(error).toMatchObject({ code: 'sarif_version_unsupported' });
    expect(error.details).toBeUndefined();
    const number = await failure(bufferReportSource('{"version":2,"runs":[]}'));
    expect(number).toMatchObject({ code: 'report_version_unsupported' });
  });

  it('accepts runs: null and a $schema-only version as empty SARIF 2 logs', async () => {
    expect(
      await findingsOf(readSarif(bufferReportSource('{"version":"2.1.0","runs":null}'))),
    ).toEqual([]);
    const schemaOnly = '{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[]}';
    expect(await findingsOf(readSarif(bufferReportSource(schemaOnly)))).toEqual([]);
  });
});
