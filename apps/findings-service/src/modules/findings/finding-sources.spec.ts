import { findingSources, SourceColumns } from './finding-sources';

const row: SourceColumns = {
  sources: {},
  scanner: 'ScanA',
  scannerVersion: '1.0',
  lastSeenAt: new Date('2026-11-01T10:00:00.000Z'),
  ruleId: 'R1',
  cve: 'CVE-2024-0001',
  score: 7.5,
  description: 'first sighting',
};

describe('findingSources', () => {
  it('adds the latest scanner’s entry implied by the columns', () => {
    expect(findingSources(row)).toEqual({
      ScanA: {
        scanner: 'ScanA',
        scanner_version: '1.0',
        scanned_at: '2026-11-01T10:00:00.000Z',
        rule_id: 'R1',
        cve: 'CVE-2024-0001',
        score: 7.5,
        description: 'first sighting',
      },
    });
  });

  it('keeps stored entries, and a stored entry of the latest scanner wins', () => {
    const stored = {
      ScanA: { scanner: 'ScanA', description: 'other text' },
      ScanB: { scanner: 'ScanB' },
    };
    expect(findingSources({ ...row, sources: stored })).toBe(stored);
    const withB = findingSources({ ...row, sources: { ScanB: { scanner: 'ScanB' } } });
    expect(Object.keys(withB).sort()).toEqual(['ScanA', 'ScanB']);
  });
});
