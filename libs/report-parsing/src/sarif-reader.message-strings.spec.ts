import { NormalizedFinding } from './normalized-finding';
import { findingsOf } from './testing/report-fixtures';
import { bufferReportSource } from './report-source';
import { readSarif } from './sarif-reader';

function read(tool: object, results: object[]): Promise<NormalizedFinding[]> {
  return findingsOf(
    readSarif(bufferReportSource(JSON.stringify({ version: '2.1.0', runs: [{ tool, results }] }))),
  );
}

const byId = (id: string, args: string[] = []) => ({ message: { id, arguments: args } });

describe('readSarif: message strings by reference (SARIF 2.1.0 §3.11.7)', () => {
  const tool = {
    driver: {
      name: 'T',
      globalMessageStrings: {
        shared: { text: 'Driver-wide: {0} in {1}.' },
        onlyDriver: { text: 'Only the driver has this one.' },
      },
      rules: [
        { id: 'D1', messageStrings: { shared: { text: 'Rule D1 says {0}.' } } },
        { id: 'D2' },
      ],
    },
    extensions: [
      {
        name: 'pack',
        globalMessageStrings: { shared: { markdown: 'Pack-wide: **{0}**.' } },
        rules: [{ id: 'E1' }],
      },
    ],
  };

  it('takes the rule’s messageStrings first', async () => {
    const [finding] = await read(tool, [{ ruleId: 'D1', ...byId('shared', ['x']) }]);
    expect(finding.description).toBe('Rule D1 says x.');
  });

  it('then the globalMessageStrings of the driver, for a driver rule', async () => {
    const [finding] = await read(tool, [{ ruleId: 'D2', ...byId('shared', ['a', 'b.c']) }]);
    expect(finding).toMatchObject({
      title: 'Driver-wide: a in b.c.',
      description: 'Driver-wide: a in b.c.',
    });
  });

  it('then the tool component that holds the rule, then the driver', async () => {
    const rule = { id: 'E1', toolComponent: { index: 0 } };
    const [own, fallback] = await read(tool, [
      { ruleId: 'E1', rule, ...byId('shared', ['y']) },
      { ruleId: 'E1', rule, ...byId('onlyDriver') },
    ]);
    expect(own.description).toBe('Pack-wide: **y**.');
    expect(fallback.description).toBe('Only the driver has this one.');
  });

  it('without a rule, the driver’s strings; an unknown id leaves the rule id as title', async () => {
    const [noRule, unknown, inherited] = await read(tool, [
      byId('onlyDriver'),
      { ruleId: 'D2', ...byId('nowhere') },
      { ruleId: 'D2', ...byId('constructor') },
    ]);
    expect(noRule.description).toBe('Only the driver has this one.');
    expect(unknown).toMatchObject({ title: 'D2', description: 'D2' });
    // An id that names an Object.prototype member is no message string either.
    expect(inherited).toMatchObject({ title: 'D2', description: 'D2' });
  });
});
