import { randomBytes, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { parseTrustCertificate, verifyEkChain, type EkTrustAnchor } from '@platform/pki';
import { createTpmStateWithEkCert, type SwtpmEkState } from '../support/swtpm-ek';
import {
  CA_EXTENSIONS,
  ekExtensions,
  opensslCertificate,
  resigned,
  type OpensslCa,
} from './openssl-certs';

const DAY = 86_400_000;

function anchor(pem: string, id = 'root-1', name = 'swtpm local root'): EkTrustAnchor {
  return { id, name, der: new X509Certificate(pem).raw };
}

// verifyEkChain (libs/pki) against EK certificates made by a real swtpm_setup/swtpm_localca,
// and openssl-made certificates for the shapes swtpm does not produce.
describe('EK certificate chain (verifyEkChain)', () => {
  let dir: string;
  let tpm: SwtpmEkState;
  let other: SwtpmEkState;
  let ca: OpensslCa;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ek-chain-'));
    [tpm, other] = await Promise.all([
      createTpmStateWithEkCert(join(dir, 'tpm-a')),
      createTpmStateWithEkCert(join(dir, 'tpm-b')),
    ]);
    ca = await opensslCertificate(dir, { subject: '/CN=Test TPM Root', extensions: CA_EXTENSIONS });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts the swtpm RSA EK certificate through its intermediate up to its root', () => {
    const result = verifyEkChain(tpm.ekCertDer, tpm.intermediatesDer, [anchor(tpm.vendorRootPem)]);
    expect(result).toMatchObject({ ok: true, anchor: { id: 'root-1', name: 'swtpm local root' } });
    if (!result.ok) throw new Error('unreachable');
    const ek = new X509Certificate(tpm.ekCertDer);
    expect(result.serialHex).toBe(ek.serialNumber.toLowerCase().padStart(2, '0'));
    expect(result.ekCertDer.equals(tpm.ekCertDer)).toBe(true);
    expect(result.ekPublicKey.asymmetricKeyType).toBe('rsa');
    expect(result.ekPublicKey.export({ format: 'jwk' })).toEqual(
      ek.publicKey.export({ format: 'jwk' }),
    );
  });

  it('accepts the ECC EK certificate swtpm writes beside it, and picks the right root of several', async () => {
    const eccDer = await readFile(join(dir, 'tpm-a', 'ekcerts', 'ek-secp384r1.crt'));
    const anchors = [anchor(other.vendorRootPem, 'other'), anchor(tpm.vendorRootPem, 'mine')];
    const result = verifyEkChain(eccDer, tpm.intermediatesDer, anchors);
    expect(result).toMatchObject({ ok: true, anchor: { id: 'mine' } });
    if (result.ok) expect(result.ekPublicKey.asymmetricKeyType).toBe('ec');
  });

  it('refuses an EK certificate under another swtpm_localca root as untrusted', () => {
    expect(
      verifyEkChain(tpm.ekCertDer, tpm.intermediatesDer, [anchor(other.vendorRootPem)]),
    ).toEqual({ ok: false, reason: 'untrusted' });
    // the other TPM's intermediate does not help: its signature is not over this EK
    expect(
      verifyEkChain(tpm.ekCertDer, other.intermediatesDer, [anchor(other.vendorRootPem)]),
    ).toEqual({ ok: false, reason: 'untrusted' });
  });

  it('refuses an EK certificate whose intermediate is missing as untrusted', () => {
    expect(verifyEkChain(tpm.ekCertDer, [], [anchor(tpm.vendorRootPem)])).toEqual({
      ok: false,
      reason: 'untrusted',
    });
  });

  it('finds the path among unrelated intermediates, in any order', () => {
    const intermediates = [...other.intermediatesDer, ...tpm.intermediatesDer];
    const result = verifyEkChain(tpm.ekCertDer, intermediates, [anchor(tpm.vendorRootPem)]);
    expect(result.ok).toBe(true);
  });

  it('checks validity at `at`: before the EK was made, it is expired', () => {
    const anchors = [anchor(tpm.vendorRootPem)];
    const before = new Date(new X509Certificate(tpm.ekCertDer).validFrom).getTime() - DAY;
    expect(verifyEkChain(tpm.ekCertDer, tpm.intermediatesDer, anchors, new Date(before))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('accepts a vendor-shaped EK (empty subject, critical directoryName SAN) and expires it after notAfter', async () => {
    const ek = await opensslCertificate(dir, {
      subject: '/',
      issuer: ca,
      extensions: ekExtensions(),
      days: 1,
    });
    expect(new X509Certificate(ek.der).subject ?? '').toBe('');
    const anchors = [anchor(ca.pem)];
    const now = verifyEkChain(ek.der, [], anchors);
    expect(now.ok).toBe(true);
    expect(verifyEkChain(ek.der, [], anchors, new Date(Date.now() + 2 * DAY))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses a certificate whose EKU lacks 2.23.133.8.1 as not_ek', async () => {
    const server = await opensslCertificate(dir, {
      subject: '/CN=server.example',
      issuer: ca,
      extensions:
        'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
    });
    expect(verifyEkChain(server.der, [], [anchor(ca.pem)])).toEqual({
      ok: false,
      reason: 'not_ek',
    });
    // a CA certificate is no EK either, even one the roots sign
    expect(verifyEkChain(tpm.intermediatesDer[0], [], [anchor(tpm.vendorRootPem)])).toEqual({
      ok: false,
      reason: 'not_ek',
    });
  });

  it('refuses an EK certificate carrying a critical extension it does not understand', async () => {
    const ek = await opensslCertificate(dir, {
      subject: '/',
      issuer: ca,
      extensions: ekExtensions('1.2.3.4=critical,ASN1:NULL'),
    });
    expect(verifyEkChain(ek.der, [], [anchor(ca.pem)])).toEqual({ ok: false, reason: 'untrusted' });
  });

  it('refuses a path through a non-CA, a not-understood or a too-deep intermediate as untrusted', async () => {
    const issueEk = async (issuer: OpensslCa) =>
      (await opensslCertificate(dir, { subject: '/', issuer, extensions: ekExtensions() })).der;
    const intermediate = (issuer: OpensslCa, extensions: string) =>
      opensslCertificate(dir, { subject: '/CN=TPM Intermediate', issuer, extensions });
    const good = await intermediate(ca, CA_EXTENSIONS);
    expect(verifyEkChain(await issueEk(good), [good.der], [anchor(ca.pem)]).ok).toBe(true);

    const notCa = await intermediate(
      ca,
      'basicConstraints=critical,CA:FALSE\nsubjectKeyIdentifier=hash\n',
    );
    const odd = await intermediate(
      ca,
      `${CA_EXTENSIONS}nameConstraints=critical,permitted;DNS:tpm.example\n`,
    );
    const shallow = await opensslCertificate(dir, {
      subject: '/CN=Shallow TPM Root',
      extensions:
        'basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign\nsubjectKeyIdentifier=hash\n',
    });
    const deep = await intermediate(shallow, CA_EXTENSIONS);
    const cases: [OpensslCa, OpensslCa][] = [
      [notCa, ca],
      [odd, ca],
      [deep, shallow],
    ];
    for (const [via, root] of cases) {
      expect(verifyEkChain(await issueEk(via), [via.der], [anchor(root.pem)])).toEqual({
        ok: false,
        reason: 'untrusted',
      });
    }
    // directly under the pathlen:0 root, an EK is fine
    expect(verifyEkChain(await issueEk(shallow), [], [anchor(shallow.pem)]).ok).toBe(true);
  });

  it('trusts an EK under a self-signed X.509 v1 root', async () => {
    const v1 = await opensslCertificate(dir, { subject: '/CN=Old TPM Root' });
    expect(parseTrustCertificate(v1.der)?.fields.version).toBe(0);
    const ek = await opensslCertificate(dir, {
      subject: '/',
      issuer: v1,
      extensions: ekExtensions('', { authorityKeyId: false }),
    });
    expect(verifyEkChain(ek.der, [], [anchor(v1.pem)]).ok).toBe(true);
  });

  it('answers malformed for garbage, and never throws', () => {
    const anchors = [anchor(tpm.vendorRootPem)];
    const ek = tpm.ekCertDer;
    const garbage: [Buffer, Buffer[]][] = [
      [Buffer.alloc(0), []],
      [randomBytes(700), []],
      [ek.subarray(0, ek.length - 10), tpm.intermediatesDer],
      [Buffer.concat([ek, Buffer.from([0])]), tpm.intermediatesDer],
      [Buffer.from(new X509Certificate(ek).toString()), tpm.intermediatesDer],
      [ek, [randomBytes(40)]],
      [ek, [...tpm.intermediatesDer, ...tpm.intermediatesDer, ...tpm.intermediatesDer, ek, ek]],
      [ek, [Buffer.concat([tpm.intermediatesDer[0], randomBytes(8192)])]],
      [Buffer.concat([ek, randomBytes(8192)]), tpm.intermediatesDer],
    ];
    for (const [cert, intermediates] of garbage) {
      expect(verifyEkChain(cert, intermediates, anchors)).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
    expect(verifyEkChain('x' as unknown as Buffer, 'y' as unknown as Buffer[], anchors)).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifyEkChain(ek, tpm.intermediatesDer, anchors, new Date(Number.NaN))).toEqual({
      ok: false,
      reason: 'malformed',
    });
    // a stored root that no longer parses is skipped, not thrown
    expect(
      verifyEkChain(ek, tpm.intermediatesDer, [{ id: 'x', name: 'x', der: randomBytes(30) }]),
    ).toEqual({ ok: false, reason: 'untrusted' });
  });

  it('answers no_roots when no vendor root is registered', () => {
    expect(verifyEkChain(tpm.ekCertDer, tpm.intermediatesDer, [])).toEqual({
      ok: false,
      reason: 'no_roots',
    });
  });

  it('reads the RSA key of an EK certificate that names it id-RSAES-OAEP', async () => {
    const ek = await opensslCertificate(dir, {
      subject: '/',
      issuer: ca,
      extensions: ekExtensions(),
    });
    // relabel the key id-RSAES-OAEP, as some vendors write EKs, and re-sign
    const oaep = await resigned(dir, ek.der, ca, (cert) => {
      cert.subjectPublicKeyInfo.algorithm = new pkijs.AlgorithmIdentifier({
        algorithmId: '1.2.840.113549.1.1.7',
        algorithmParams: new asn1js.Sequence(),
      });
    });
    expect(parseTrustCertificate(oaep)?.fields.subjectPublicKeyInfo.algorithm.algorithmId).toBe(
      '1.2.840.113549.1.1.7',
    );
    const result = verifyEkChain(oaep, [], [anchor(ca.pem)]);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.ekPublicKey.export({ format: 'jwk' })).toEqual(
        new X509Certificate(ek.der).publicKey.export({ format: 'jwk' }),
      );
    }
  });
});
