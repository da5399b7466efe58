import { effectivePurposes, purposeAllowed } from './purpose-access';

describe('purpose access', () => {
  it('inherits the assignment when no override is set', () => {
    expect(purposeAllowed('wifi', ['wifi'], {})).toBe(true);
    expect(purposeAllowed('vpn', ['wifi'], {})).toBe(false);
  });

  it('lets overrides win over the assignment', () => {
    expect(purposeAllowed('wifi', ['wifi'], { wifi: 'deny' })).toBe(false);
    expect(purposeAllowed('vpn', [], { vpn: 'allow' })).toBe(true);
  });

  it('lists effective purposes in canonical order', () => {
    expect(effectivePurposes(['user_mtls', 'wifi'], { ssh: 'allow', wifi: 'deny' })).toEqual([
      'user_mtls',
      'ssh',
    ]);
  });
});
