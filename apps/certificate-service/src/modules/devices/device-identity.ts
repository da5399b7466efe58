/**
 * Serials that firmware reports when the vendor never set one; they identify nothing, so a
 * device reporting one is counted by its key (`pk:`) instead.
 */
const PLACEHOLDER_SERIALS = new Set(
  [
    '',
    '0',
    '00000000',
    '0000000000',
    '1234567890',
    '123456789',
    'default string',
    'none',
    'n/a',
    'na',
    'not applicable',
    'not specified',
    'o.e.m.',
    'oem',
    'system serial number',
    'to be filled by o.e.m.',
    'chassis serial number',
    'serial',
    'unknown',
  ].map((s) => s.toLowerCase()),
);

export function isPlaceholderSerial(serial: string): boolean {
  return PLACEHOLDER_SERIALS.has(serial.trim().toLowerCase());
}

export interface IdentitySources {
  /** Serial of the TPM / Secure Enclave endorsement certificate, when attested. */
  readonly ekCertSerial?: string | null;
  readonly serial: string;
  /** SHA-256 (hex) of the CSR public key. */
  readonly publicKeyHash: string;
}

/**
 * Licence identity of a device, by priority: `ek:` EK certificate serial, `sn:` device
 * serial, `pk:` hash of the CSR public key when the serial is empty or a placeholder.
 */
export function deviceIdentityKey(sources: IdentitySources): string {
  const ek = sources.ekCertSerial?.trim();
  if (ek) return `ek:${ek.toLowerCase()}`;
  if (!isPlaceholderSerial(sources.serial)) return `sn:${sources.serial.trim()}`;
  return `pk:${sources.publicKeyHash}`;
}
