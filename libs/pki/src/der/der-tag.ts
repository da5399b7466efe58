/** Universal tags used by the writer and the reader. */
export const DerTag = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  ENUMERATED: 0x0a,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  T61_STRING: 0x14,
  IA5_STRING: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  BMP_STRING: 0x1e,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

/** Tag byte of a context-specific element `[n]`; constructed for EXPLICIT and IMPLICIT SEQUENCE. */
export function contextTag(n: number, constructed: boolean): number {
  if (!Number.isInteger(n) || n < 0 || n > 30)
    throw new RangeError(`context tag ${n} out of range`);
  return 0x80 | (constructed ? 0x20 : 0) | n;
}
