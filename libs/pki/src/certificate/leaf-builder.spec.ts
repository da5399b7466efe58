import { createPublicKey, verify } from 'node:crypto';
import { generateCaMaterial } from '../ca/ca-bootstrap';
import { readCertificateInfo } from '../ca/certificate-info';
import { loadIssuingCa } from '../ca/issuing-ca';
import { readBitStringBytes, readChildren, readSingle } from '../der/der-reader';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';
import { ecKeyPair } from '../testing/csr-factory';
import { LeafCertificateBuilder, LeafRequest } from './leaf-builder';

const kek = Buffer.alloc(32, 1);
const ca = loadIssuingCa(generateCaMaterial(kek, { now: new Date('2026-01-01T00:00:00Z') }), kek);
const spki = ecKeyPair().publicKey.export({ format: 'der', type: 'spki' });
const now = new Date('2026-03-01T12:00:00Z');
const base: LeafRequest = {
  purpose: 'wifi',
  subjectCommonName: 'SN-42',
  publicKeySpkiDer: spki,
  keyAlgorithm: 'ec',
  now,
};

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof PkiError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('LeafCertificateBuilder', () => {
  const builder = new LeafCertificateBuilder(ca);

  it('issues a certificate signed by the issuing CA with its issuer name and key', () => {
    const leaf = builder.issue(base);
    const info = readCertificateInfo(leaf.certificateDer);
    expect(info.issuerDer).toEqual(ca.nameDer);
    expect(info.spkiDer).toEqual(spki);
    expect(info.serial).toBe(leaf.serial);
    expect(leaf.serial).toMatch(/^[4-7][0-9a-f]{31}$/);
    const [, , signature] = readChildren(readSingle(leaf.certificateDer));
    const caKey = createPublicKey({
      key: readCertificateInfo(ca.certificateDer).spkiDer,
      format: 'der',
      type: 'spki',
    });
    expect(verify('sha256', info.tbsDer, caKey, readBitStringBytes(signature))).toBe(true);
    expect(info.extensions.get(Oids.authorityKeyIdentifier)?.includes(ca.keyIdentifier)).toBe(true);
  });

  it('applies lifetimes per purpose: wifi 3 years (configurable), others 1 year', () => {
    expect(builder.issue(base).notAfter.toISOString()).toBe('2029-03-01T12:00:00.000Z');
    expect(builder.issue(base).notBefore.toISOString()).toBe('2026-03-01T11:55:00.000Z');
    expect(builder.issue({ ...base, purpose: 'user_mtls' }).notAfter.toISOString()).toBe(
      '2027-03-01T12:00:00.000Z',
    );
    expect(builder.issue({ ...base, purpose: 'vpn' }).notAfter.toISOString()).toBe(
      '2027-03-01T12:00:00.000Z',
    );
    const twoYears = new LeafCertificateBuilder(ca, { wifiLifetime: { unit: 'years', amount: 2 } });
    expect(twoYears.issue(base).notAfter.toISOString()).toBe('2028-03-01T12:00:00.000Z');
    expect(
      codeOf(() => new LeafCertificateBuilder(ca, { wifiLifetime: { unit: 'years', amount: 11 } })),
    ).toBe('lifetime_invalid');
  });

  it('never outlives the issuing CA and refuses issuance after it expired', () => {
    const late = new Date(ca.notAfter.getTime() - 86_400_000);
    expect(builder.issue({ ...base, now: late }).notAfter).toEqual(ca.notAfter);
    expect(
      codeOf(() => builder.issue({ ...base, now: new Date(ca.notAfter.getTime() + 1000) })),
    ).toBe('ca_expired');
    expect(codeOf(() => builder.issue({ ...base, now: new Date('2025-06-01T00:00:00Z') }))).toBe(
      'ca_not_yet_valid',
    );
  });

  it('refuses unsafe common names', () => {
    for (const cn of [
      '',
      ' padded',
      'a\u0000b',
      'line\nbreak',
      'x'.repeat(65),
      'rtl\u202Eexe',
      'bad\ud800',
    ]) {
      expect(codeOf(() => builder.issue({ ...base, subjectCommonName: cn }))).toBe(
        'subject_invalid',
      );
    }
    expect(codeOf(() => builder.issue({ ...base, subjectCommonName: 'Jürgen Groß' }))).toBe(
      'accepted',
    );
  });

  it('needs a UPN for ad_logon and checks SANs and SIDs', () => {
    expect(codeOf(() => builder.issue({ ...base, purpose: 'ad_logon' }))).toBe('san_invalid');
    const adLogon = {
      ...base,
      purpose: 'ad_logon' as const,
      subjectAltNames: [{ type: 'upn' as const, value: 'a@corp.example' }],
    };
    const info = readCertificateInfo(
      builder.issue({ ...adLogon, sid: 'S-1-5-21-1-2-3-500' }).certificateDer,
    );
    expect(info.extensions.get(Oids.ntdsCaSecurityExt)?.toString('latin1')).toContain(
      'S-1-5-21-1-2-3-500',
    );
    expect(codeOf(() => builder.issue({ ...adLogon, sid: 'S-1-x' }))).toBe('san_invalid');
    expect(
      codeOf(() =>
        builder.issue({ ...base, subjectAltNames: [{ type: 'dns', value: '-bad-.com' }] }),
      ),
    ).toBe('san_invalid');
    expect(
      codeOf(() => builder.issue({ ...base, subjectAltNames: [{ type: 'ip', value: '1.2.3' }] })),
    ).toBe('san_invalid');
    expect(
      codeOf(() => builder.issue({ ...base, subjectAltNames: [{ type: 'upn', value: 'no-at' }] })),
    ).toBe('san_invalid');
  });

  it('uses keyEncipherment for RSA keys and keyAgreement for EC ad_logon keys', () => {
    const keyUsageOf = (request: LeafRequest): string =>
      readCertificateInfo(builder.issue(request).certificateDer)
        .extensions.get(Oids.keyUsage)!
        .toString('hex');
    expect(keyUsageOf(base)).toBe('03020780');
    expect(keyUsageOf({ ...base, keyAlgorithm: 'rsa' })).toBe('030205a0');
    const upn = [{ type: 'upn' as const, value: 'a@b' }];
    expect(keyUsageOf({ ...base, purpose: 'ad_logon', subjectAltNames: upn })).toBe('03020388');
  });
});
