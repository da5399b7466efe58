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

  it('refuses a SARIF version other than 2.x with its own code', async () => {
    for (const input of [
      bufferReportSource('{"version":"1.0.0","runs":[]}'),
      fileReportSource(fixturePath('unsupported-version.sarif')),
    ]) {
      expect(await failure(input)).toMatchObject({
        code: 'report_version_unsupported',
        message: 'the SARIF version is not supported (2.x expected)',
      });
    }
  });

  it('accepts runs: null and a $schema-only version as empty SARIF 2 logs', async () => {
    expect(
      await findingsOf(readSarif(bufferReportSource('{"version":"2.1.0","runs":null}'))),
    ).toEqual([]);
    const schemaOnly = '{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[]}';
    expect(await findingsOf(readSarif(bufferReportSource(schemaOnly)))).toEqual([]);
  });
});
