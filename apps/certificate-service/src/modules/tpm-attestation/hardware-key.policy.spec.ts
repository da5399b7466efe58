import { hardwarePolicyRefusal, isTpmPlatform } from './hardware-key.policy';

const off = { rejectUnattested: false, requireAkCertify: false, rejectSoftware: false };
const attested = (keyResident: boolean) => ({
  ok: true as const,
  ekSerial: '01',
  akPublic: Buffer.from('ak'),
  binding: 'activated' as const,
  keyResident,
});

describe('hardwarePolicyRefusal (TPM_* settings)', () => {
  it('lets everything through with every setting off, except a bound device without evidence', () => {
    expect(
      hardwarePolicyRefusal(off, { verdict: undefined, platform: 'linux', pinned: null }),
    ).toBeUndefined();
    expect(
      hardwarePolicyRefusal(off, {
        verdict: undefined,
        platform: 'linux',
        pinned: { ekCertSerial: '01', akPublic: null },
      }),
    ).toBe('tpm_bound_without_evidence');
  });

  it('TPM_REJECT_UNATTESTED refuses TPM platforms without evidence, not macOS', () => {
    const config = { ...off, rejectUnattested: true };
    for (const platform of ['linux', 'windows', undefined]) {
      expect(hardwarePolicyRefusal(config, { verdict: undefined, platform, pinned: null })).toBe(
        'unattested',
      );
    }
    expect(
      hardwarePolicyRefusal(config, { verdict: undefined, platform: 'macos', pinned: null }),
    ).toBeUndefined();
    expect(
      hardwarePolicyRefusal(config, { verdict: attested(false), platform: 'linux', pinned: null }),
    ).toBeUndefined();
  });

  it('TPM_REQUIRE_AK_CERTIFY refuses attested requests without a certified key', () => {
    const config = { ...off, requireAkCertify: true };
    expect(
      hardwarePolicyRefusal(config, { verdict: attested(false), platform: 'linux', pinned: null }),
    ).toBe('certify_missing');
    expect(
      hardwarePolicyRefusal(config, { verdict: attested(true), platform: 'linux', pinned: null }),
    ).toBeUndefined();
    expect(
      hardwarePolicyRefusal(config, { verdict: undefined, platform: 'linux', pinned: null }),
    ).toBeUndefined();
  });

  it('TPM_REJECT_SOFTWARE refuses any CSR key not proven TPM-resident on TPM platforms', () => {
    const config = { ...off, rejectSoftware: true };
    expect(
      hardwarePolicyRefusal(config, { verdict: undefined, platform: 'windows', pinned: null }),
    ).toBe('software_key');
    expect(
      hardwarePolicyRefusal(config, {
        verdict: attested(false),
        platform: 'windows',
        pinned: null,
      }),
    ).toBe('software_key');
    expect(
      hardwarePolicyRefusal(config, { verdict: attested(true), platform: 'windows', pinned: null }),
    ).toBeUndefined();
  });

  it('knows macOS by its usual names', () => {
    expect(['macos', 'darwin', 'macOS 27.1'].map(isTpmPlatform)).toEqual([false, false, false]);
    expect(['windows', 'linux', '', 'ubuntu'].map(isTpmPlatform)).toEqual([true, true, true, true]);
  });
});
