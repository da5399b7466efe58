import { findingIdentity } from './finding-identity';
import { FindingBatch, NormalizedFinding } from './normalized-finding';
import { collect, rejectionOf } from './testing/report-fixtures';
import { bufferReportSource } from './report-source';
import { addWarnings, IgnoredValues, ResultWarnings } from './result-warnings';
import { readSonarqube } from './sonarqube-reader';

async function read(doc: object): Promise<FindingBatch[]> {
  return collect(readSonarqube(bufferReportSource(JSON.stringify(doc))));
}

function findings(batches: FindingBatch[]): NormalizedFinding[] {
  return batches.flatMap((b) => b.findings);
}

function skipped(batches: FindingBatch[]): ResultWarnings {
  const total: ResultWarnings = {};
  for (const batch of batches) addWarnings(total, batch.skipped);
  return total;
}

function ignored(batches: FindingBatch[]): IgnoredValues {
  const total: IgnoredValues = {};
  for (const batch of batches) addWarnings(total, batch.ignored);
  return total;
}

const issue = (key: string, extra: object = {}) => ({
  key,
  rule: 'java:S1',
  component: 'shop:src/A.java',
  line: 3,
  message: `issue ${key}`,
  ...extra,
});

describe('readSonarqube: structure and invalid issues', () => {
  it.each([
    [{ issues: {} }, 'issues'],
    [{ issues: [], hotspots: 'none' }, 'hotspots'],
    [{ issues: [], components: {} }, 'components'],
    [{ issues: [], rules: [1] }, 'rules[0]'],
  ])('fails %j as report_structure_invalid at %s', async (doc, path) => {
    const error = await rejectionOf(read(doc));
    expect(error).toMatchObject({ code: 'report_structure_invalid', details: { path } });
  });

  it.each([
    ['a string', 'x', 'result_not_object'],
    ['line 0', issue('a', { line: 0 }), 'result_region_invalid'],
    ['line 2^53', issue('a', { line: 2 ** 53 }), 'result_region_invalid'],
    [
      'text range end past int4',
      issue('a', { textRange: { startLine: 1, endLine: 2 ** 31 } }),
      'result_region_invalid',
    ],
    ['text range not an object', issue('a', { textRange: 5 }), 'result_location_invalid'],
    ['component not a string', issue('a', { component: 7 }), 'result_location_invalid'],
    ['rule not a string, nothing else naming it', issue('a', { rule: 7 }), 'result_rule_invalid'],
    [
      'generic import with a fractional line',
      {
        ruleId: 'r',
        primaryLocation: { message: 'm', filePath: 'a', textRange: { startLine: 1.5 } },
      },
      'result_region_invalid',
    ],
    [
      'generic import location not an object',
      { ruleId: 'r', primaryLocation: 'a' },
      'result_location_invalid',
    ],
  ])('skips and counts %s', async (_name, bad, code) => {
    const batches = await read({ issues: [issue('k1'), bad, issue('k2', { line: 9 })] });
    expect(findings(batches).map((f) => f.description)).toEqual(['issue k1', 'issue k2']);
    expect(skipped(batches)).toEqual({ [code]: 1 });
    expect(ignored(batches)).toEqual({});
  });

  it.each([
    [
      'message not a string: the rule name describes it',
      issue('a', { message: {} }),
      'result_message_ignored',
      { description: 'java:S1' },
    ],
    [
      'generic import message not a string',
      { ruleId: 'r', primaryLocation: { message: 5, filePath: 'a.go' } },
      'result_message_ignored',
      { description: 'r', location: { kind: 'file', path: 'a.go' } },
    ],
    [
      'an unknown severity word: the impacts decide',
      issue('a', { severity: 'SEVERE', impacts: [{ severity: 'HIGH' }] }),
      'result_severity_ignored',
      { severity: 'HIGH' },
    ],
    [
      'impacts not an array',
      issue('a', { impacts: 'HIGH' }),
      'result_severity_ignored',
      { severity: 'INFO' },
    ],
    [
      'status and tags of the wrong type',
      issue('a', { status: 3, tags: { cwe: 1 } }),
      'result_member_ignored',
      { kind: 'fail', tags: [] },
    ],
    [
      'rule of the wrong type beside a ruleKey',
      issue('a', { rule: 7, ruleKey: 'java:S2' }),
      'result_rule_ignored',
      { rule_id: 'java:S2' },
    ],
  ])('stores %s and counts the ignored value', async (_name, odd, code, expected) => {
    const batches = await read({ issues: [issue('k1'), odd, issue('k2', { line: 9 })] });
    expect(findings(batches)).toHaveLength(3);
    expect(findings(batches)[1]).toMatchObject(expected);
    expect(skipped(batches)).toEqual({});
    expect(ignored(batches)).toEqual({ [code]: 1 });
  });

  it('an empty severity (sonar-report writes one) is no severity, not an ignored value', async () => {
    const batches = await read({ issues: [issue('a', { severity: '' })] });
    expect(findings(batches)[0]).toMatchObject({ severity: 'INFO' });
    expect(ignored(batches)).toEqual({});
  });
});

describe('readSonarqube: identity of issues without a line', () => {
  const dependencyCheck = (key: string, message: string, extra: object = {}) => ({
    key,
    rule: 'dependency-check:UsingComponentWithKnownVulnerability',
    component: 'shop:pom.xml',
    message,
    type: 'VULNERABILITY',
    severity: 'CRITICAL',
    ...extra,
  });

  it('keeps one finding per CVE (from the message) instead of collapsing them', async () => {
    const batches = await read({
      issues: [
        dependencyCheck(
          'D1',
          'Filename: log4j-core-2.14.1.jar | Reference: CVE-2021-44228 | CVSS Score: 10.0',
        ),
        dependencyCheck(
          'D2',
          'Filename: log4j-core-2.14.1.jar | Reference: CVE-2021-45046 | CVSS Score: 9.0',
        ),
        dependencyCheck('D3', 'Filename: jackson-databind.jar | Reference: GHSA-57J2-W4CX-62QP'),
        dependencyCheck('D4', 'Filename: commons.jar | no identifier here'),
        dependencyCheck('D5', 'Filename: commons.jar | no identifier here'),
      ],
    });
    const found = findings(batches);
    expect(found.map((f) => [f.cve, f.discriminator])).toEqual([
      ['CVE-2021-44228', 'CVE-2021-44228'],
      ['CVE-2021-45046', 'CVE-2021-45046'],
      [undefined, 'GHSA-57j2-w4cx-62qp'],
      [undefined, 'D4'],
      [undefined, 'D5'],
    ]);
    expect(new Set(found.map((f) => f.identity)).size).toBe(5);
  });

  it('the same CVE reported again under another issue key is the same finding', async () => {
    const [a] = findings(
      await read({ issues: [dependencyCheck('K1', 'Reference: CVE-2020-1234')] }),
    );
    const [b] = findings(
      await read({ issues: [dependencyCheck('K2', 'x', { tags: ['cve-2020-1234'] })] }),
    );
    expect(a.identity).toBe(b.identity);
  });

  it('issues with a line keep the identity they had (rule, path, lines)', async () => {
    const [located] = findings(
      await read({ issues: [issue('L1', { message: 'Reference: CVE-2021-44228' })] }),
    );
    expect(located.cve).toBe('CVE-2021-44228');
    expect(located.discriminator).toBeUndefined();
    expect(located.identity).toBe(
      findingIdentity({ rule_id: 'java:S1', location: located.location }),
    );
  });
});
