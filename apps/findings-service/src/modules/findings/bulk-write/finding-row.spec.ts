import type { NormalizedFinding } from '@platform/report-parsing';
import {
  copyJson,
  copyLine,
  copyText,
  copyTextArray,
  FACT_COLUMNS,
  mergeFindings,
  STAGE_COLUMNS,
  stagedBatch,
  uuidV7,
} from './finding-row';

function finding(overrides: Partial<NormalizedFinding> = {}): NormalizedFinding {
  return {
    rule_id: 'R1',
    title: 'Title',
    description: 'line one\nline\ttwo \\ end',
    severity: 'HIGH',
    severity_source: 'result_level',
    location: { kind: 'file', path: 'src/a.ts', start_line: 3, snippet: 'a\tb' },
    cwe: ['CWE-79'],
    tags: ['security', 'has "quote"'],
    scanner: 'semgrep',
    suppressed: false,
    kind: 'fail',
    fingerprints: { fingerprints: {}, partial_fingerprints: { h: 'x' } },
    properties: { precision: 'high' },
    identity: 'a'.repeat(64),
    ...overrides,
  };
}

describe('COPY text encoding of ingestion batches', () => {
  it('escapes backslash, tab, newline and carriage return and replaces NUL with U+FFFD', () => {
    expect(copyText('plain')).toBe('plain');
    expect(copyText('a\tb\nc\rd\\e\0f')).toBe('a\\tb\\nc\\rd\\\\e\uFFFDf');
    expect(copyText('\\N')).toBe('\\\\N');
    expect(copyTextArray(['a\0b'])).toBe('{"a\uFFFDb"}');
  });

  it('encodes text[] with every element quoted, then COPY-escaped', () => {
    expect(copyTextArray([])).toBe('{}');
    expect(copyTextArray(['a', 'b c'])).toBe('{"a","b c"}');
    // element `q"\` -> array literal `"q\"\\"` -> COPY doubles each backslash
    expect(copyTextArray(['q"\\'])).toBe('{"q\\\\"\\\\\\\\"}');
    expect(copyTextArray(['t\tx'])).toBe('{"t\\tx"}');
  });

  it('encodes jsonb, replacing NUL and unpaired surrogates (jsonb refuses both) with U+FFFD', () => {
    expect(copyJson({ a: 'x"y' })).toBe('{"a":"x\\\\"y"}');
    expect(copyJson({ 'k\0': ['v\0w'] })).toBe('{"k\uFFFD":["v\uFFFDw"]}');
    expect(copyJson({ a: '\uD800x', b: 'y\uDC00', c: '\uD83D\uDE00' })).toBe(
      '{"a":"\uFFFDx","b":"y\uFFFD","c":"\uD83D\uDE00"}',
    );
    // An escaped backslash before `u0000` is text, not an escape: kept as it is.
    expect(copyJson({ p: 'C:\\u0000', q: '\u0001' })).toBe(
      '{"p":"C:\\\\\\\\u0000","q":"\\\\u0001"}',
    );
  });

  it('writes one line per finding with one field per staging column', () => {
    const line = copyLine(finding());
    expect(line.endsWith('\n')).toBe(true);
    const fields = line.slice(0, -1).split('\t');
    expect(fields).toHaveLength(STAGE_COLUMNS.length);
    const field = (name: string) => fields[STAGE_COLUMNS.findIndex(([n]) => n === name)];
    expect(field('identity_kind')).toBe('code');
    expect(field('description')).toBe('line one\\nline\\ttwo \\\\ end');
    expect(field('snippet')).toBe('a\\tb');
    expect(field('end_line')).toBe('\\N');
    expect(field('host')).toBe('\\N');
    expect(field('suppressed')).toBe('f');
    expect(field('report_tags')).toBe('{"security","has \\\\"quote\\\\""}');
  });

  it('keeps identity kinds of web and network findings', () => {
    const kind = (f: NormalizedFinding) =>
      copyLine(f).split('\t')[STAGE_COLUMNS.findIndex(([n]) => n === 'identity_kind')];
    expect(kind(finding({ location: { kind: 'file', path: ' HTTPS://x.test/a' } }))).toBe('web');
    expect(kind(finding({ location: { kind: 'web', url: 'https://x.test/' } }))).toBe('web');
    expect(
      kind(finding({ location: { kind: 'network', host: 'h', port: 22 }, cve: 'CVE-1' })),
    ).toBe('network_cve');
    expect(kind(finding({ location: { kind: 'network', host: 'h' } }))).toBe('network');
  });

  it('folds repeated identities of a batch: the last occurrence wins', () => {
    const batch = stagedBatch([
      finding({ title: 'first' }),
      finding({ identity: 'b'.repeat(64) }),
      finding({ title: 'last' }),
    ]);
    expect(batch.rows).toBe(2);
    const lines = batch.data.toString('utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('\tlast\t');
  });

  it('records the batch scanners and exactly the fact columns some encoded row has a value in', () => {
    const variants: NormalizedFinding[][] = [
      [finding()],
      [finding({ cwe: [], tags: [] })],
      [finding({ location: { kind: 'network', host: 'db.corp', port: 5432 }, cve: 'CVE-1' })],
      [finding({ location: { kind: 'web', url: 'https://x.test/' }, component: 'lodash' })],
      [
        finding({ scanner: 'CodeQL', cwe: [], tags: [] }),
        finding({ identity: 'b'.repeat(64), location: { kind: 'network', host: 'h' } }),
      ],
    ];
    for (const findings of variants) {
      const batch = stagedBatch(findings);
      const lines = batch.data.toString('utf8').split('\n').filter(Boolean);
      const encoded = FACT_COLUMNS.filter((column) => {
        const at = STAGE_COLUMNS.findIndex(([n]) => n === column);
        return lines.some((line) => !['\\N', '{}'].includes(line.split('\t')[at] ?? '\\N'));
      });
      expect(batch.facts?.present.slice().sort()).toEqual(encoded.slice().sort());
      expect(batch.facts?.scanners.slice().sort()).toEqual(
        [...new Set(findings.map((f) => f.scanner))].sort(),
      );
    }
  });

  it('generates time-ordered version 7 UUIDs', () => {
    const ids = Array.from({ length: 5000 }, () => uuidV7());
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('mergeFindings', () => {
  it('keeps what only the earlier result knew, unites lists and keeps the higher severity', () => {
    const network = { kind: 'network' as const, host: 'db', port: 5432, protocol: 'tcp' };
    const earlier = finding({
      severity: 'CRITICAL',
      location: { ...network, service: 'postgresql' },
      component: 'postgresql',
      component_version: '14.1',
      cwe: ['CWE-89'],
      tags: ['db'],
    });
    const later = finding({
      rule_id: 'R2',
      severity: 'MEDIUM',
      location: network,
      cwe: [],
      tags: ['tls'],
    });
    const merged = mergeFindings(earlier, later);
    expect(merged).toMatchObject({
      rule_id: 'R2',
      severity: 'CRITICAL',
      severity_source: 'result_level',
      location: { ...network, service: 'postgresql' },
      component: 'postgresql',
      component_version: '14.1',
      cwe: ['CWE-89'],
      tags: ['db', 'tls'],
    });
    expect(stagedBatch([earlier, later]).rows).toBe(1);
  });
});
