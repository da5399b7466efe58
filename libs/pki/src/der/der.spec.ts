import { PkiError } from '../pki.errors';
import { decodeOid, oid } from './der-oid';
import { bitString, integer, namedBitString } from './der-primitives';
import {
  readChildren,
  readElement,
  readInteger,
  readOid,
  readSingle,
  readTime,
} from './der-reader';
import { ia5String, printableString, utf8String } from './der-string';
import { generalizedTime, x509Time } from './der-time';
import { encodeLength, explicit, implicit, sequence, setOf } from './der-tlv';
import { fromPem, toPem } from './pem';

const hex = (b: Buffer): string => b.toString('hex');

describe('DER writer', () => {
  it('encodes short and long lengths minimally', () => {
    expect(hex(encodeLength(0))).toBe('00');
    expect(hex(encodeLength(127))).toBe('7f');
    expect(hex(encodeLength(128))).toBe('8180');
    expect(hex(encodeLength(255))).toBe('81ff');
    expect(hex(encodeLength(256))).toBe('820100');
    expect(hex(encodeLength(65536))).toBe('83010000');
  });

  it('encodes integers with two-complement sign handling', () => {
    expect(hex(integer(0))).toBe('020100');
    expect(hex(integer(127))).toBe('02017f');
    expect(hex(integer(128))).toBe('02020080');
    expect(hex(integer(256))).toBe('02020100');
    expect(hex(integer(-1))).toBe('0201ff');
    expect(hex(integer(-128))).toBe('020180');
    expect(hex(integer(-129))).toBe('0202ff7f');
    expect(hex(integer(2n ** 64n))).toBe('0209010000000000000000');
    expect(hex(integer(Buffer.from('0000ff', 'hex')))).toBe('020200ff');
    expect(hex(integer(Buffer.from('7f01', 'hex')))).toBe('02027f01');
    for (const value of [0n, 1n, -1n, 127n, 128n, -128n, -129n, 2n ** 130n, -(2n ** 130n)]) {
      expect(readInteger(readSingle(integer(value)))).toBe(value);
    }
  });

  it('encodes, caches and decodes OIDs', () => {
    expect(hex(oid('1.2.840.10045.4.3.2'))).toBe('06082a8648ce3d040302');
    expect(hex(oid('2.5.29.19'))).toBe('0603551d13');
    expect(oid('2.5.29.19')).toBe(oid('2.5.29.19'));
    for (const dotted of ['2.999.3', '1.3.6.1.4.1.311.25.2.1', '0.9.2342.19200300.100.1.1']) {
      expect(decodeOid(readSingle(oid(dotted)).content)).toBe(dotted);
    }
    expect(() => oid('1.40')).toThrow(RangeError);
    expect(() => oid('1.2.03')).toThrow(RangeError);
  });

  it('chooses UTCTime before 2050 and GeneralizedTime from 2050', () => {
    expect(x509Time(new Date('2049-12-31T23:59:59Z')).toString('latin1', 2)).toBe('491231235959Z');
    expect(x509Time(new Date('2050-01-01T00:00:00Z')).toString('latin1', 2)).toBe(
      '20500101000000Z',
    );
    expect(x509Time(new Date('2050-01-01T00:00:00Z'))[0]).toBe(0x18);
    expect(x509Time(new Date('1949-06-01T00:00:00Z'))[0]).toBe(0x18);
    for (const iso of ['1999-02-03T04:05:06Z', '2049-12-31T23:59:59Z', '2051-07-08T09:10:11Z']) {
      expect(readTime(readSingle(x509Time(new Date(iso)))).toISOString()).toBe(
        iso.replace('Z', '.000Z'),
      );
    }
    expect(hex(generalizedTime(new Date('2024-01-02T03:04:05.678Z')))).toBe(
      hex(Buffer.concat([Buffer.from([0x18, 15]), Buffer.from('20240102030405Z')])),
    );
  });

  it('encodes strings, bit strings, sets and tagged elements', () => {
    expect(hex(utf8String('é'))).toBe('0c02c3a9');
    expect(hex(printableString('AB'))).toBe('13024142');
    expect(() => printableString('a@b')).toThrow(RangeError);
    expect(() => ia5String('é')).toThrow(RangeError);
    expect(hex(bitString(Buffer.from([0xab])))).toBe('030200ab');
    // digitalSignature + keyEncipherment -> 05 a0; keyCertSign + cRLSign -> 01 06
    expect(hex(namedBitString([0, 2]))).toBe('030205a0');
    expect(hex(namedBitString([5, 6]))).toBe('03020106');
    expect(hex(setOf(Buffer.from('0201ff', 'hex'), Buffer.from('020101', 'hex')))).toBe(
      '3106020101' + '0201ff',
    );
    expect(hex(explicit(0, integer(2)))).toBe('a003020102');
    expect(hex(implicit(2, false, Buffer.from('a')))).toBe('820161');
  });

  it('round-trips PEM and refuses junk around the block', () => {
    const der = sequence(integer(5));
    const pem = toPem('CERTIFICATE REQUEST', der);
    expect(fromPem(pem, ['CERTIFICATE REQUEST'])).toEqual(der);
    expect(() => fromPem(`junk\n${pem}`, ['CERTIFICATE REQUEST'])).toThrow(PkiError);
    expect(() => fromPem(pem, ['CERTIFICATE'])).toThrow(PkiError);
  });
});

describe('DER reader', () => {
  const codeOf = (fn: () => unknown): string | undefined => {
    try {
      fn();
    } catch (error) {
      return error instanceof PkiError ? error.code : 'other';
    }
    return undefined;
  };

  it('walks nested TLVs', () => {
    const der = sequence(integer(1), sequence(oid('2.5.4.3'), utf8String('x')));
    const [first, second] = readChildren(readSingle(der));
    expect(readInteger(first)).toBe(1n);
    expect(readOid(readChildren(second)[0])).toBe('2.5.4.3');
  });

  it('refuses non-DER and truncated input', () => {
    expect(codeOf(() => readSingle(Buffer.from('3080020100000', 'hex')))).toBe('der_invalid');
    expect(codeOf(() => readSingle(Buffer.from('30810100', 'hex')))).toBe('der_invalid');
    expect(codeOf(() => readSingle(Buffer.from('3005020101', 'hex')))).toBe('der_invalid');
    expect(codeOf(() => readSingle(Buffer.from('30030201010000', 'hex')))).toBe('der_invalid');
    expect(codeOf(() => readElement(Buffer.from('1f8101', 'hex')))).toBe('der_invalid');
    expect(codeOf(() => readInteger(readSingle(Buffer.from('02020001', 'hex'))))).toBe(
      'der_invalid',
    );
    expect(codeOf(() => readSingle(Buffer.from('3084ffffffff', 'hex')))).toBe('der_invalid');
  });
});
