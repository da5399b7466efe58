import { generateKeyPairSync } from 'node:crypto';
import { selectCaCertificates, sha256Fingerprint } from './scep-ca-certificates';
import { buildCertificate, KeyUsageBits } from './scep-x509';

const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const rootKeys = rsa();
const root = buildCertificate({
  subject: 'Root',
  publicKey: rootKeys.publicKey,
  signingKey: rootKeys.privateKey,
  ca: true,
  days: 30,
});
const issuingKeys = rsa();
const issuing = buildCertificate({
  subject: 'Issuing',
  publicKey: issuingKeys.publicKey,
  issuer: { certificateDer: root, privateKey: rootKeys.privateKey },
  ca: true,
  days: 30,
});
const ra = (
  usage: number,
  issuer = { certificateDer: issuing, privateKey: issuingKeys.privateKey },
) =>
  buildCertificate({
    subject: 'RA',
    publicKey: rsa().publicKey,
    issuer,
    ca: false,
    keyUsage: usage,
    days: 30,
  });

describe('selectCaCertificates (RFC 8894 section 3.5.1)', () => {
  it('without RA: the issuing CA encrypts and signs; chain issuing first, root last', () => {
    const selected = selectCaCertificates([root, issuing]);
    expect(selected.chainDer).toEqual([issuing, root]);
    expect(selected.encryptionDer).toEqual(issuing);
    expect(selected.signingDer).toEqual(issuing);
  });

  it('with RAs: keyEncipherment receives, digitalSignature signs', () => {
    const enc = ra(KeyUsageBits.keyEncipherment);
    const sig = ra(KeyUsageBits.digitalSignature);
    const selected = selectCaCertificates([sig, root, enc, issuing]);
    expect(selected.encryptionDer).toEqual(enc);
    expect(selected.signingDer).toEqual(sig);
    expect(selected.issuingCaDer).toEqual(issuing);
    expect(selected.chainDer).toEqual([issuing, root]);
  });

  it('refuses an RA the CA did not issue, a missing CA, and a pin that matches nothing', () => {
    const foreign = rsa();
    const other = buildCertificate({
      subject: 'Other',
      publicKey: foreign.publicKey,
      signingKey: foreign.privateKey,
      ca: true,
      days: 1,
    });
    const stray = ra(KeyUsageBits.keyEncipherment, {
      certificateDer: other,
      privateKey: foreign.privateKey,
    });
    expect(() => selectCaCertificates([root, issuing, stray])).toThrow(/not issued by the CA/);
    expect(() => selectCaCertificates([ra(KeyUsageBits.keyEncipherment)])).toThrow(
      /no CA certificate/,
    );
    expect(() => selectCaCertificates([root, issuing], 'ab'.repeat(32))).toThrow(/pinned/);
    expect(
      selectCaCertificates([root, issuing], sha256Fingerprint(root).toUpperCase()).chainDer,
    ).toHaveLength(2);
  });
});
