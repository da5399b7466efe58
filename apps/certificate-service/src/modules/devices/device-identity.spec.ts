import { deviceIdentityKey, isPlaceholderSerial } from './device-identity';

describe('deviceIdentityKey', () => {
  const hash = 'ab'.repeat(32);

  it('prefers the EK certificate serial', () => {
    expect(deviceIdentityKey({ ekCertSerial: '0A1B', serial: 'SN1', publicKeyHash: hash })).toBe(
      'ek:0a1b',
    );
  });

  it('uses the device serial without hardware attestation', () => {
    expect(deviceIdentityKey({ serial: 'PF3XYZ12', publicKeyHash: hash })).toBe('sn:PF3XYZ12');
  });

  it('falls back to the key hash for placeholder serials', () => {
    expect(isPlaceholderSerial('To Be Filled By O.E.M.')).toBe(true);
    expect(deviceIdentityKey({ serial: 'Default string', publicKeyHash: hash })).toBe(`pk:${hash}`);
    expect(deviceIdentityKey({ serial: ' ', publicKeyHash: hash })).toBe(`pk:${hash}`);
  });
});
