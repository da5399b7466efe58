import { NormalizedFinding } from './normalized-finding';
import { bufferReportSource } from './report-source';
import { readSarif } from './sarif-reader';
import { collect } from './testing/report-fixtures';

/**
 * The spec's "result level" read as SARIF's effective level (SARIF 2.1.0 §3.27.10), and the
 * rule's short title for lists (docs/findings-service/sarif.md, Severity and Other fields).
 */
const location = [
  { physicalLocation: { artifactLocation: { uri: 'src/a.c' }, region: { startLine: 3 } } },
];

async function readOne(
  result: object,
  rule: object = {},
  run: object = {},
): Promise<NormalizedFinding> {
  const text = JSON.stringify({
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'T', rules: [{ id: 'r', ...rule }] } },
        ...run,
        results: [
          { ruleId: 'r', message: { text: 'the message' }, locations: location, ...result },
        ],
      },
    ],
  });
  const batches = await collect(readSarif(bufferReportSource(text)));
  const [finding] = batches.flatMap((b) => b.findings);
  if (!finding) throw new Error('no finding');
  return finding;
}

describe('SARIF effective level', () => {
  it.each([
    ['no level, no rule level, kind absent (fail): warning', {}, {}, 'MEDIUM', 'level_default'],
    [
      'no level, no rule level, kind fail: warning',
      { kind: 'fail' },
      {},
      'MEDIUM',
      'level_default',
    ],
    [
      'no level, kind fail: the rule level',
      { kind: 'fail' },
      { defaultConfiguration: { level: 'note' } },
      'LOW',
      'rule_level',
    ],
    [
      'no level, the rule level error',
      {},
      { defaultConfiguration: { level: 'error' } },
      'HIGH',
      'rule_level',
    ],
    [
      'result level wins over the rule level',
      { level: 'note' },
      { defaultConfiguration: { level: 'error' } },
      'LOW',
      'result_level',
    ],
    ['kind pass without level: none', { kind: 'pass' }, {}, 'INFO', 'kind_not_fail'],
    [
      'kind review without level: none, whatever the rule says',
      { kind: 'review' },
      { defaultConfiguration: { level: 'error' } },
      'INFO',
      'kind_not_fail',
    ],
    [
      'kind informational with a level: the level as written',
      { kind: 'informational', level: 'warning' },
      {},
      'MEDIUM',
      'result_level',
    ],
    ['an unknown kind counts as fail', { kind: 'weird' }, {}, 'MEDIUM', 'level_default'],
    [
      'an explicit severity still comes first',
      { properties: { severity: 'critical' } },
      {},
      'CRITICAL',
      'result_properties',
    ],
  ])('%s', async (_name, result, rule, severity, source) => {
    expect(await readOne(result, rule)).toMatchObject({ severity, severity_source: source });
  });

  it('applies the invocation override of the rule level before the warning default', async () => {
    const finding = await readOne(
      {},
      {},
      {
        invocations: [
          {
            executionSuccessful: true,
            ruleConfigurationOverrides: [
              { descriptor: { id: 'r' }, configuration: { level: 'error' } },
            ],
          },
        ],
      },
    );
    expect(finding).toMatchObject({ severity: 'HIGH', severity_source: 'rule_level' });
  });
});

describe('rule title', () => {
  it.each([
    [
      'the short description (first line), not the message',
      { name: 'AwsKey', shortDescription: { text: '\n AWS access key\nmore text' } },
      'AWS access key',
    ],
    ['the name when there is no short description', { name: 'Generic API Key' }, 'Generic API Key'],
    ['none when the rule has neither', {}, undefined],
  ])('%s', async (_name, rule, title) => {
    const finding = await readOne({}, rule);
    expect(finding.rule_title).toBe(title);
    expect(finding.rule_id).toBe('r');
  });

  it('is at most 200 characters', async () => {
    const finding = await readOne({}, { shortDescription: { text: 'x'.repeat(500) } });
    expect(finding.rule_title?.length).toBeLessThanOrEqual(200);
  });
});
