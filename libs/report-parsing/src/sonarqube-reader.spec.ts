import { NormalizedFinding } from './normalized-finding';
import {
  collect,
  corpusPath,
  findingsOf,
  fixture,
  fixturePath,
  oneShot,
  rejectionOf,
} from './testing/report-fixtures';
import { bufferReportSource, fileReportSource } from './report-source';
import { readSonarqube } from './sonarqube-reader';

function byRule(findings: NormalizedFinding[], rule: string): NormalizedFinding {
  const hit = findings.find((f) => f.rule_id === rule);
  if (!hit) throw new Error(`no finding for ${rule}`);
  return hit;
}

describe('readSonarqube: Web API issues export', () => {
  let findings: NormalizedFinding[];
  beforeAll(async () => {
    findings = await findingsOf(
      readSonarqube(fileReportSource(fixturePath('sonarqube-issues.json'))),
    );
  });

  it('yields issues then hotspots with paths resolved through components listed later', () => {
    expect(findings.map((f) => f.rule_id)).toEqual([
      'java:S2076',
      'java:S1481',
      'java:S1135',
      'xml:S125',
      'java:S4721',
      'java:S4790',
    ]);
    expect(byRule(findings, 'java:S2076')).toMatchObject({
      rule_name: 'OS commands should not be vulnerable to command injection attacks',
      title: 'OS commands should not be vulnerable to command injection attacks',
      description: 'Make sure that this OS command is not built from user input.',
      location: { kind: 'file', path: 'src/main/java/Cmd.java', start_line: 42, end_line: 43 },
      tags: ['cwe', 'cwe-78', 'injection'],
      cwe: ['CWE-78'],
      scanner: 'SonarQube',
      kind: 'fail',
      suppressed: false,
      fingerprints: {
        fingerprints: { sonarIssueKey: 'AX-1' },
        partial_fingerprints: { sonarLineHash: 'a1b2' },
      },
    });
    // Not in components[]: the key after "project:" is the path.
    expect(byRule(findings, 'java:S1135').location).toMatchObject({
      path: 'src/main/java/Todo.java',
      start_line: 3,
    });
    expect(byRule(findings, 'xml:S125').location).toEqual({ kind: 'file', path: 'pom.xml' });
  });

  it('maps severities: legacy word first, then the highest impact, else INFO', () => {
    expect(byRule(findings, 'java:S2076')).toMatchObject({
      severity: 'CRITICAL',
      severity_source: 'result_properties',
    });
    expect(byRule(findings, 'java:S1481').severity).toBe('LOW');
    expect(byRule(findings, 'java:S1135').severity).toBe('MEDIUM');
    expect(byRule(findings, 'xml:S125')).toMatchObject({
      severity: 'INFO',
      severity_source: 'default',
    });
  });

  it('maps resolution and status to suppressed / kind', () => {
    expect(byRule(findings, 'java:S1481')).toMatchObject({ suppressed: true, kind: 'fail' });
    expect(byRule(findings, 'java:S1135')).toMatchObject({ suppressed: false, kind: 'pass' });
  });

  it('maps hotspots by vulnerability probability and review status', () => {
    expect(byRule(findings, 'java:S4721')).toMatchObject({
      severity: 'HIGH',
      kind: 'review',
      suppressed: false,
      tags: ['security-hotspot', 'command-injection'],
      location: { path: 'src/main/java/Cmd.java', start_line: 40 },
    });
    expect(byRule(findings, 'java:S4790')).toMatchObject({
      severity: 'MEDIUM',
      kind: 'pass',
      suppressed: true,
    });
  });

  it('uses upload parameters for scanner, version and revision', async () => {
    const [batch] = await collect(
      readSonarqube(fileReportSource(fixturePath('sonarqube-issues.json')), {
        engine: 'sonarqube-10.6',
        engine_version: '10.6',
        commit_id: 'c0ffee',
      }),
    );
    expect(batch.run).toEqual({
      format: 'sonarqube',
      run_index: 0,
      scanner: 'sonarqube-10.6',
      scanner_version: '10.6',
      revision: 'c0ffee',
      coverage: {
        incomplete: false,
        files: ['src/main/java/Cmd.java', 'src/main/java/Util.java'],
        failedFiles: [],
        hosts: [],
      },
    });
    expect(batch.findings[0]).toMatchObject({ scanner: 'sonarqube-10.6', revision: 'c0ffee' });
  });

  it('reads the same from a one-shot stream', async () => {
    expect(await findingsOf(readSonarqube(oneShot(fixture('sonarqube-issues.json'), 50)))).toEqual(
      findings,
    );
  });
});

describe('readSonarqube: generic issue import', () => {
  let findings: NormalizedFinding[];
  beforeAll(async () => {
    findings = await findingsOf(
      readSonarqube(fileReportSource(fixturePath('sonarqube-generic.json'))),
    );
  });

  it('maps primary locations, rules and engines', () => {
    expect(byRule(findings, 'gosec-G101')).toMatchObject({
      title: 'Hard-coded credentials',
      description: 'Potential hardcoded credentials',
      scanner: 'gosec',
      severity: 'HIGH',
      severity_source: 'rule_properties',
      location: { kind: 'file', path: 'cmd/server/main.go', start_line: 21, end_line: 21 },
    });
    expect(byRule(findings, 'lint-1')).toMatchObject({
      scanner: 'mylint',
      severity: 'MEDIUM',
      location: { path: 'pkg/b/long.go', start_line: 5, end_line: 90 },
    });
    expect(byRule(findings, 'no-eval')).toMatchObject({
      scanner: 'eslint',
      severity: 'MEDIUM',
      severity_source: 'result_properties',
      title: 'eval can be harmful.',
      properties: { type: 'VULNERABILITY' },
    });
  });
});

describe('readSonarqube: sonar-report export (rules keyed by rule key)', () => {
  let findings: NormalizedFinding[];
  beforeAll(async () => {
    findings = await findingsOf(
      readSonarqube(fileReportSource(corpusPath('sonar-report-export.json'))),
    );
  });

  it('reads every issue: rule names from the rules object, paths from component', () => {
    expect(findings.map((f) => f.rule_id)).toEqual([
      'javasecurity:S3649',
      'java:S5547',
      'dependency-check:UsingComponentWithKnownVulnerability',
      'java:S2068',
    ]);
    expect(byRule(findings, 'javasecurity:S3649')).toMatchObject({
      rule_name: 'Database queries should not be vulnerable to injection attacks',
      title: 'Database queries should not be vulnerable to injection attacks',
      description:
        'Change this code to not construct SQL queries directly from user-controlled data.',
      severity: 'CRITICAL',
      location: {
        kind: 'file',
        path: 'src/main/java/shop/OrderRepository.java',
        start_line: 57,
        end_line: 57,
      },
      scanner: 'SonarQube',
      kind: 'fail',
      fingerprints: { fingerprints: { sonarIssueKey: 'AZb1-i1' }, partial_fingerprints: {} },
    });
    expect(byRule(findings, 'dependency-check:UsingComponentWithKnownVulnerability')).toMatchObject(
      { cve: 'CVE-2019-12384', severity: 'MEDIUM', location: { kind: 'file', path: 'pom.xml' } },
    );
  });

  it('titles an issue by its `description` (the rule name sonar-report copies) when the rules object lacks the rule', () => {
    expect(byRule(findings, 'java:S2068')).toMatchObject({
      title: 'Hard-coded credentials are security-sensitive',
      severity: 'HIGH',
      // A hotspot sonar-report lists among the issues: still to review.
      kind: 'review',
    });
  });

  it('reads the empty object sonar-report writes for its rules Map', async () => {
    const text = JSON.stringify({
      projectName: 'p',
      sonarComponent: 'p',
      rules: {},
      issues: [
        {
          rule: 'java:S1',
          severity: 'MINOR',
          component: 'A.java',
          line: 1,
          description: '/',
          message: 'm',
          key: 'k',
        },
      ],
      hotspotKeys: [],
      summary: { blocker: 0, critical: 0, major: 0, minor: 1 },
    });
    const [finding] = await findingsOf(readSonarqube(bufferReportSource(text)));
    expect(finding).toMatchObject({ rule_id: 'java:S1', title: 'm', severity: 'LOW' });
  });
});

describe('readSonarqube: refusals', () => {
  it.each([
    ['{"version":"2.1.0","runs":[]}', 'this looks like SARIF, not a SonarQube report'],
    ['{"paging":{}}', 'not a SonarQube report: no `issues` or `hotspots` array'],
    ['"issues"', 'not a SonarQube report: not a JSON object'],
  ])('refuses %s', async (text, message) => {
    expect(await rejectionOf(findingsOf(readSonarqube(bufferReportSource(text))))).toMatchObject({
      code: 'report_unsupported',
      message,
    });
  });

  it('reports malformed JSON with the byte offset', async () => {
    const error = await rejectionOf(
      findingsOf(readSonarqube(bufferReportSource('{"issues":[{"rule":"a"} {}]}'))),
    );
    expect(error).toMatchObject({
      code: 'report_malformed',
      message: "malformed JSON at byte 24: expected ',' or ']', found '{'",
    });
  });
});
