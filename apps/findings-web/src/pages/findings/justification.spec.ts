import type { Translate } from '../../i18n/i18n';
import { justificationProblem } from './justification';

const t: Translate = (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key);

describe('the justification of a decision', () => {
  it('is required for risk acceptance, false positive and won’t fix', () => {
    for (const status of ['risk_accepted', 'false_positive', 'wont_fix'] as const) {
      expect(justificationProblem(t, status, '  ')).toBe('finding.justificationRequired');
      expect(justificationProblem(t, status, 'compensating control in place')).toBeUndefined();
    }
  });

  it('is optional for the other moves, and never longer than 4000 characters', () => {
    expect(justificationProblem(t, 'in_progress', '')).toBeUndefined();
    expect(justificationProblem(t, 'in_progress', 'x'.repeat(4001))).toBe(
      'validation.maxLength {"max":4000}',
    );
    expect(justificationProblem(t, 'wont_fix', 'x'.repeat(4000))).toBeUndefined();
  });
});
