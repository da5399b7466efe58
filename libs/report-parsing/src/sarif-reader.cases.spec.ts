import { NormalizedFinding } from './normalized-finding';
import { collect, fixture, fixturePath, oneShot } from './testing/report-fixtures';
import { fileReportSource } from './report-source';
import { readSarif } from './sarif-reader';

const DEFAULTS = { engine: 'upload-engine', engine_version: '9.9', commit_id: 'upload-commit' };

async function load(): Promise<{ run0: NormalizedFinding[]; run1: NormalizedFinding[] }> {
  const batches = await collect(
    readSarif(fileReportSource(fixturePath('sarif-all-cases.sarif')), DEFAULTS),
  );
  return {
    run0: batches.filter((b) => b.run.run_index === 0).flatMap((b) => b.findings),
    run1: batches.filter((b) => b.run.run_index === 1).flatMap((b) => b.findings),
  };
}

function byMessage(findings: NormalizedFinding[], text: string): NormalizedFinding {
  const hit = findings.find((f) => f.description.startsWith(text));
  if (!hit) throw new Error(`no finding "${text}"`);
  return hit;
}

describe('readSarif on the hand-written all-cases report', () => {
  let run0: NormalizedFinding[];
  let run1: NormalizedFinding[];
  beforeAll(async () => ({ run0, run1 } = await load()));

  it.each([
    ['Explicit word on the result', 'LOW', 'result_properties'],
    ['Score on the result', 'CRITICAL', 'result_properties'],
    ['Severity word on the rule', 'CRITICAL', 'rule_properties'],
    ['Score on the rule', 'HIGH', 'rule_properties'],
    ['Result level error', 'HIGH', 'result_level'],
    ['Rule level note', 'LOW', 'rule_level'],
    ['Value userInput flows to exec().', 'MEDIUM', 'level_default'],
    ['Level overridden by the invocation', 'HIGH', 'rule_level'],
    ['From an extension', 'MEDIUM', 'rule_level'],
    ['Unknown rule, no location', 'INFO', 'result_level'],
  ])('severity of "%s" is %s from %s', (message, severity, source) => {
    expect(byMessage(run0, message)).toMatchObject({ severity, severity_source: source });
  });

  it('resolves file locations through uriBaseId chains and checkout roots', () => {
    expect(byMessage(run0, 'Explicit word').location).toEqual({
      kind: 'file',
      path: 'src/a.c',
      start_line: 10,
      end_line: 12,
      snippet: '  strcpy(dst, src);',
    });
    expect(byMessage(run0, 'Score on the result').location).toEqual({
      kind: 'file',
      path: 'src/b.c',
      start_line: 5,
      end_line: 5,
    });
    expect(byMessage(run0, 'Severity word on the rule').location).toMatchObject({
      path: 'lib/c.c',
    });
    expect(byMessage(run0, 'Unknown rule').location).toEqual({ kind: 'file', path: '' });
    expect(byMessage(run0, 'Logical location only')).toMatchObject({
      location: { kind: 'file', path: 'Acme.Billing.Charge' },
      logical_location: 'Acme.Billing.Charge',
    });
  });

  it('recognizes web findings from artifact URIs and web requests; one identity', () => {
    const artifact = byMessage(run0, 'Reflected XSS (artifact URI)');
    const request = byMessage(run0, 'Reflected XSS (web request)');
    expect(artifact.location).toEqual({
      kind: 'web',
      url: 'https://Shop.Example.COM/app/login?next=/Admin',
    });
    expect(request.location).toEqual({
      kind: 'web',
      url: 'HTTPS://shop.example.com/app/login?next=/Admin',
    });
    expect(artifact.identity).toBe(request.identity);
  });

  it('recognizes network findings from properties and tcp:// URIs', () => {
    const a = byMessage(run0, 'PostgreSQL vulnerable');
    expect(a).toMatchObject({
      location: {
        kind: 'network',
        host: 'DB.internal',
        port: 5432,
        protocol: 'tcp',
        service: 'postgresql',
      },
      cve: 'CVE-2023-0001',
      score: 9.8,
      severity: 'CRITICAL',
      component: 'postgresql',
      component_version: '14.1',
    });
    const b = byMessage(run0, 'Same CVE from another rule');
    expect(b.identity).toBe(a.identity);
    const c = byMessage(run0, 'Weak TLS cipher');
    const d = byMessage(run0, 'Self-signed certificate');
    expect(c.location).toMatchObject({ host: 'db.internal', ip: '10.0.0.7' });
    expect(c.identity).toBe(d.identity);
    expect(c.identity).not.toBe(a.identity);
    expect(byMessage(run0, 'SSH password login').location).toEqual({
      kind: 'network',
      host: '10.0.0.5',
      port: 22,
      protocol: 'tcp',
    });
  });

  it('maps tags, CWE, suppressions, baseline state, kind and fingerprints', () => {
    expect(byMessage(run0, 'Result level error')).toMatchObject({
      rule_name: 'note-rule',
      tags: ['external/cwe/cwe-79', 'security'],
      cwe: ['CWE-79'],
    });
    expect(byMessage(run0, 'Score on the rule').cwe).toEqual(['CWE-89']);
    expect(byMessage(run0, 'Suppressed and fingerprinted')).toMatchObject({
      suppressed: true,
      baseline_state: 'unchanged',
      kind: 'review',
      cwe: ['CWE-22'],
      fingerprints: {
        fingerprints: { 'matchHash/v1': 'abc' },
        partial_fingerprints: { primaryLocationLineHash: 'def:1' },
      },
    });
    const rejected = byMessage(run0, 'Suppression rejected');
    expect(rejected).toMatchObject({ suppressed: false, kind: 'fail' });
    expect(rejected.baseline_state).toBeUndefined();
  });

  it('uses the rule short description as title, else the first message line', () => {
    expect(byMessage(run0, 'Explicit word').title).toBe('Rule with error level');
    expect(byMessage(run0, 'From an extension').title).toBe('Extension rule');
    expect(run1[0]).toMatchObject({ title: 'line one', description: 'line one\nline two' });
  });

  it('takes scanner, version and revision from the report, else from the upload', () => {
    expect(run0[0]).toMatchObject({
      scanner: 'CaseScanner',
      scanner_version: '3.1.4',
      revision: 'abc123def',
    });
    expect(run1[0]).toMatchObject({
      scanner: 'SecondTool',
      scanner_version: '9.9',
      revision: 'upload-commit',
    });
  });

  it('applies a rule defined after the results (results before tool)', () => {
    expect(run1).toHaveLength(1);
    expect(run1[0]).toMatchObject({
      rule_id: 'S1',
      severity: 'MEDIUM',
      severity_source: 'rule_level',
      location: { kind: 'file', path: 'src/win/path.cs', start_line: 3, end_line: 3 },
    });
  });

  it('reads the same from a one-shot stream', async () => {
    const batches = await collect(
      readSarif(oneShot(fixture('sarif-all-cases.sarif'), 97), DEFAULTS),
    );
    expect(batches.flatMap((b) => b.findings)).toEqual([...run0, ...run1]);
  });
});
