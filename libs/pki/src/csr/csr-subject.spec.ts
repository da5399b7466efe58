import { integer } from '../der/der-primitives';
import { DerTag } from '../der/der-tag';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';
import { ecKeyPair, makeCsr, type CsrOptions } from '../testing/csr-factory';
import { parseCsr } from './csr-parser';

const key = ecKeyPair();

function refusal(options: Omit<CsrOptions, 'keyPair'>): { code: string; message: string } {
  try {
    parseCsr(makeCsr({ keyPair: key, ...options }));
  } catch (error) {
    if (error instanceof PkiError) return { code: error.code, message: error.message };
    throw error;
  }
  return { code: 'accepted', message: '' };
}

const attr = (oid: string, value: string | Buffer, tag?: number) => ({ oid, value, tag });
const O = Oids.organizationName;
const OU = '2.5.4.11';
const SERIAL_NUMBER = '2.5.4.5';
const EMAIL = '1.2.840.113549.1.9.1';

describe('CSR subject bounds', () => {
  it('accepts attributes at their RFC 5280 upper bounds and returns the last CN', () => {
    const csr = parseCsr(
      makeCsr({
        keyPair: key,
        subject: [
          attr('2.5.4.6', 'DE', DerTag.PRINTABLE_STRING),
          attr(O, 'o'.repeat(64)),
          attr(OU, 'u'.repeat(64)),
          attr(SERIAL_NUMBER, '7'.repeat(64), DerTag.PRINTABLE_STRING),
          attr(EMAIL, `${'e'.repeat(243)}@example.com`, DerTag.IA5_STRING),
          attr(Oids.commonName, 'first'),
          attr(Oids.commonName, 'ü'.repeat(64)),
        ],
      }),
    );
    expect(csr.subjectCommonName).toBe('ü'.repeat(64));
  });

  it.each([
    ['CN of 65 characters', [attr(Oids.commonName, 'c'.repeat(65))], 'CN'],
    ['CN of 10 000 characters', [attr(Oids.commonName, 'c'.repeat(10_000))], 'CN'],
    ['CN with NUL', [attr(Oids.commonName, 'dev\u0000ice')], 'CN'],
    ['CN with a line break', [attr(Oids.commonName, 'dev\nice')], 'CN'],
    ['CN with a bidi override', [attr(Oids.commonName, 'dev\u202eice')], 'CN'],
    ['empty CN', [attr(Oids.commonName, '')], 'CN'],
    [
      'CN as a BMPString with NUL',
      [attr(Oids.commonName, Buffer.from([0, 0x41, 0, 0]), DerTag.BMP_STRING)],
      'CN',
    ],
    ['O of 65 characters', [attr(O, 'o'.repeat(65))], 'O'],
    ['OU with NUL', [attr(OU, 'a\u0000b')], 'OU'],
    ['serialNumber of 65', [attr(SERIAL_NUMBER, '1'.repeat(65))], 'serialNumber'],
    ['emailAddress of 256', [attr(EMAIL, `${'e'.repeat(244)}@example.com`)], 'emailAddress'],
    ['C of 3 letters', [attr('2.5.4.6', 'DEU')], 'C'],
    ['unknown attribute of 129', [attr('1.2.3.4', 'x'.repeat(129))], '1.2.3.4'],
    ['a non-string value', [attr(Oids.commonName, integer(5).subarray(2), DerTag.INTEGER)], 'CN'],
  ])('refuses a %s with subject_invalid naming it', (_case, subject, field) => {
    const { code, message } = refusal({ subject });
    expect(code).toBe('subject_invalid');
    expect(message).toMatch(new RegExp(`^subject ${field.replace(/\./g, '\\.')} `));
  });

  it('refuses more than 32 subject attributes', () => {
    const subject = Array.from({ length: 33 }, (_, i) => attr(OU, `u${i}`));
    expect(refusal({ subject }).code).toBe('subject_invalid');
    expect(refusal({ subject: subject.slice(0, 32) }).code).toBe('accepted');
  });
});

describe('CSR requested SAN bounds', () => {
  it('accepts names at their bounds', () => {
    const label = 'a'.repeat(63);
    const dns = [label, label, label, 'b'.repeat(61)].join('.');
    const csr = parseCsr(
      makeCsr({
        keyPair: key,
        dnsNames: [dns],
        emails: [`${'e'.repeat(243)}@example.com`],
        uris: [`https://example.com/${'p'.repeat(2028)}`],
        upn: `${'u'.repeat(244)}@example.com`,
      }),
    );
    expect(csr.requestedSans.map((s) => s.type)).toEqual(['email', 'dns', 'uri', 'upn']);
  });

  it.each([
    ['DNS name of 254', { dnsNames: ['d'.repeat(254)] }],
    ['DNS name with NUL', { dnsNames: ['dev\u0000.example.com'] }],
    ['email of 256', { emails: [`${'e'.repeat(244)}@example.com`] }],
    ['email with a space', { emails: ['a b@example.com'] }],
    ['URI of 2049', { uris: [`https://example.com/${'p'.repeat(2029)}`] }],
    ['UPN with NUL', { upn: 'alice\u0000@corp' }],
    ['UPN of 257', { upn: `${'u'.repeat(245)}@example.com` }],
    ['65 names', { dnsNames: Array.from({ length: 65 }, (_, i) => `h${i}.example.com`) }],
  ])('refuses a %s with san_invalid', (_case, options) => {
    expect(refusal(options).code).toBe('san_invalid');
  });
});
