import { namedBitString } from '../der/der-primitives';

/** KeyUsage bits of RFC 5280 4.2.1.3. */
export const KEY_USAGE_BITS = {
  digitalSignature: 0,
  nonRepudiation: 1,
  keyEncipherment: 2,
  dataEncipherment: 3,
  keyAgreement: 4,
  keyCertSign: 5,
  cRLSign: 6,
} as const;

export type KeyUsageBit = keyof typeof KEY_USAGE_BITS;

export function encodeKeyUsage(bits: readonly KeyUsageBit[]): Buffer {
  return namedBitString(bits.map((bit) => KEY_USAGE_BITS[bit]));
}
