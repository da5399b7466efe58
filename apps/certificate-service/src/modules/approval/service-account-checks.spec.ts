import {
  attestationVerdict,
  serviceAccountRefusal,
  type ServiceAccountCheckInput,
} from './service-account-checks';

const pass: ServiceAccountCheckInput = {
  attestation: 'not_required',
  purposeAllowed: true,
  corpOwnership: 'skipped',
  registeredDuringBlock: false,
  deviceBlocked: false,
};

describe('serviceAccountRefusal', () => {
  it('passes when every check passes', () => {
    expect(serviceAccountRefusal(pass)).toBeUndefined();
    expect(serviceAccountRefusal({ ...pass, corpOwnership: 'allowed' })).toBeUndefined();
  });

  it('reports the first failing check in the specified order', () => {
    const all: ServiceAccountCheckInput = {
      attestation: 'failed',
      purposeAllowed: false,
      corpOwnership: 'denied',
      registeredDuringBlock: true,
      deviceBlocked: true,
    };
    expect(serviceAccountRefusal(all)).toBe('attestation_required');
    expect(serviceAccountRefusal({ ...all, attestation: 'passed' })).toBe('purpose_not_allowed');
    expect(serviceAccountRefusal({ ...all, attestation: 'passed', purposeAllowed: true })).toBe(
      'corp_ownership_denied',
    );
    expect(
      serviceAccountRefusal({
        ...all,
        attestation: 'passed',
        purposeAllowed: true,
        corpOwnership: 'allowed',
      }),
    ).toBe('device_blocked');
  });

  it('never reads a corp-ownership check error as permission', () => {
    expect(serviceAccountRefusal({ ...pass, corpOwnership: 'error' })).toBe(
      'corp_ownership_denied',
    );
  });

  it('refuses requests registered during a block even when the device is unblocked now', () => {
    expect(serviceAccountRefusal({ ...pass, registeredDuringBlock: true })).toBe('device_blocked');
  });
});

describe('attestationVerdict', () => {
  it.each([
    ['off', false, false, 'not_required'],
    ['off', false, true, 'not_required'],
    ['if_bound', false, false, 'not_required'],
    ['if_bound', false, true, 'failed'],
    ['if_bound', true, true, 'passed'],
    ['required', false, false, 'failed'],
    ['required', true, false, 'passed'],
  ] as const)('%s, attested %s, bound %s → %s', (step, attested, deviceTpmBound, verdict) => {
    expect(attestationVerdict(step, { attested, deviceTpmBound })).toBe(verdict);
  });
});
