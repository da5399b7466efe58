import { X509Certificate } from 'node:crypto';
import { encodeCrl, generateCaMaterial, loadIssuingCa } from '@platform/pki';
import { normalizeSerial, parseCrl } from './crl';

const kek = Buffer.alloc(32, 7);
const ca = loadIssuingCa(generateCaMaterial(kek), kek);
const otherCa = loadIssuingCa(generateCaMaterial(kek), kek);
const caCertificate = new X509Certificate(ca.certificateDer);
const times = { thisUpdate: new Date('2026-12-01Z'), nextUpdate: new Date('2026-12-02Z') };

describe('parseCrl', () => {
  it('lists the revoked serials (leading zeros of DER dropped) and checks the signature', () => {
    const der = encodeCrl(ca, {
      crlNumber: 3,
      ...times,
      entries: [
        { serial: '7f01', revokedAt: new Date('2026-11-30Z'), reason: 'keyCompromise' },
        { serial: '80aa', revokedAt: new Date('2026-11-30Z') },
      ],
    });
    const crl = parseCrl(der);
    expect([...crl.revoked].sort()).toEqual(['7f01', '80aa']);
    expect(crl.signedBy([caCertificate])).toBe(true);
    expect(crl.signedBy([new X509Certificate(otherCa.certificateDer)])).toBe(false);
    expect(crl.signedBy([])).toBe(false);
  });

  it('refuses a CRL whose signed part was changed, and reads an empty CRL', () => {
    const der = Buffer.from(encodeCrl(ca, { crlNumber: 4, ...times, entries: [] }));
    expect(parseCrl(der).revoked.size).toBe(0);
    expect(parseCrl(der).signedBy([caCertificate])).toBe(true);
    const tampered = Buffer.from(der);
    tampered[12] ^= 0x01; // a byte inside the signed tbsCertList
    expect(parseCrl(tampered).signedBy([caCertificate])).toBe(false);
  });

  it('throws on bytes that are not DER', () => {
    expect(() => parseCrl(Buffer.from('not a crl'))).toThrow();
  });

  it('normalizes serials', () => {
    expect(normalizeSerial('00ABcd')).toBe('abcd');
    expect(normalizeSerial('0')).toBe('0');
  });
});
