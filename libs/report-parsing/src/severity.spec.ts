import { severityFromLevel, severityFromScore, severityFromWord } from './severity';

describe('severity tables', () => {
  it('maps SARIF levels', () => {
    expect(['error', 'warning', 'note', 'none', 'bogus', undefined].map(severityFromLevel)).toEqual(
      ['HIGH', 'MEDIUM', 'LOW', 'INFO', undefined, undefined],
    );
  });

  it('maps CVSS scores with the documented thresholds', () => {
    expect(
      [10, 9, 8.9, 7, 6.9, 4, 3.9, 0.1, 0, -1, 10.1, Number.NaN].map(severityFromScore),
    ).toEqual([
      'CRITICAL',
      'CRITICAL',
      'HIGH',
      'HIGH',
      'MEDIUM',
      'MEDIUM',
      'LOW',
      'LOW',
      'INFO',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('maps explicit severity words case-insensitively', () => {
    expect(
      ['Critical', 'HIGH', 'moderate', 'low', 'info', 'blocker', 'minor', 'urgent'].map(
        severityFromWord,
      ),
    ).toEqual(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO', 'CRITICAL', 'LOW', undefined]);
  });
});
