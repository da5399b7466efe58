import { randomFillSync } from 'node:crypto';
import { DerTag } from '../der/der-tag';

const POOL_SIZE = 16 * 256;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

export interface SerialNumber {
  /** The complete INTEGER TLV. */
  readonly der: Buffer;
  /** 32 lowercase hex digits. */
  readonly hex: string;
}

/**
 * 16 random bytes from the CSPRNG, top bit cleared (positive) and the next bit set so the
 * encoding is always 16 bytes: 126 random bits, far above the 64 bits CAs must use.
 */
export function randomSerialNumber(): SerialNumber {
  if (poolOffset === POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const der = Buffer.allocUnsafe(18);
  der[0] = DerTag.INTEGER;
  der[1] = 16;
  pool.copy(der, 2, poolOffset, poolOffset + 16);
  pool.fill(0, poolOffset, poolOffset + 16);
  poolOffset += 16;
  der[2] = (der[2] & 0x3f) | 0x40;
  return { der, hex: der.toString('hex', 2) };
}

/** Normalizes a serial given as hex (optional colons/0x) to lowercase minimal-length hex bytes. */
export function normalizeSerialHex(serial: string): string | undefined {
  const hex = serial.trim().toLowerCase().replace(/^0x/, '').replace(/:/g, '');
  if (!/^[0-9a-f]{1,40}$/.test(hex)) return undefined;
  const even = hex.length % 2 === 1 ? `0${hex}` : hex;
  return even.replace(/^(00)+(?=..)/, '');
}
