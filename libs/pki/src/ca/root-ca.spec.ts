import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { toPem } from '../der/pem';
import { Oids } from '../der/oids';
import { BuiltInCaIssuer } from '../issuer/built-in-ca-issuer';
import { parseCsr } from '../csr/csr-parser';
import { ecKeyPair, makeCsr } from '../testing/csr-factory';
import { generateCaMaterial } from './ca-bootstrap';
import { readCertificateInfo } from './certificate-info';
import { loadIssuingCa } from './issuing-ca';
import { caCertificatesHavePointers, reissueCaCertificates, signRootCrl } from './root-ca';

const kek = Buffer.alloc(32, 5);
const pointers = {
  root: { crlDistributionUrls: ['http://pki.example/pki/root-ca.crl'] },
  issuing: {
    crlDistributionUrls: ['http://pki.example/pki/root-ca.crl'],
    caIssuersUrls: ['http://pki.example/pki/root-ca.crt'],
  },
};

function opensslText(args: string[], files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pki-root-ca-'));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const run = spawnSync(
      'openssl',
      args.map((a) => a.replace('$D', dir)),
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`openssl failed: ${run.stderr}`);
    return `${run.stdout}${run.stderr}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('root CA: CRL and re-issue of the CA certificates', () => {
  it('generates CA certificates carrying the CDP and AIA asked for', () => {
    const material = generateCaMaterial(kek, {
      rootPointers: pointers.root,
      issuingPointers: pointers.issuing,
    });
    expect(caCertificatesHavePointers(material, pointers)).toBe(true);
    const issuing = readCertificateInfo(material.issuing.certificateDer);
    expect(issuing.extensions.has(Oids.cRLDistributionPoints)).toBe(true);
    expect(issuing.extensions.has(Oids.authorityInfoAccess)).toBe(true);
    expect(new X509Certificate(material.issuing.certificateDer).infoAccess).toContain(
      'CA Issuers - URI:http://pki.example/pki/root-ca.crt',
    );
  });

  it('re-issues both CA certificates under the same keys; leaves issued before still verify', () => {
    const old = generateCaMaterial(kek);
    expect(caCertificatesHavePointers(old, pointers)).toBe(false);
    const issuer = new BuiltInCaIssuer(loadIssuingCa(old, kek));
    const csr = parseCsr(makeCsr({ keyPair: ecKeyPair(), commonName: 'x' }));
    const leaf = issuer['builder'].issue({
      purpose: 'wifi',
      subjectCommonName: 'SN-OLD',
      publicKeySpkiDer: csr.publicKeySpkiDer,
      keyAlgorithm: csr.keyAlgorithm,
    });

    const reissued = reissueCaCertificates(old, kek, pointers);
    expect(caCertificatesHavePointers(reissued, pointers)).toBe(true);
    expect(reissued.issuing.encryptedPrivateKey).toBe(old.issuing.encryptedPrivateKey);
    expect(reissued.root.encryptedPrivateKey).toBe(old.root.encryptedPrivateKey);
    const [before, after] = [old, reissued].map((m) =>
      readCertificateInfo(m.issuing.certificateDer),
    );
    expect(after.spkiDer).toEqual(before.spkiDer);
    expect(after.subjectDer).toEqual(before.subjectDer);
    expect(after.notAfter).toEqual(before.notAfter);
    expect(after.serial).not.toBe(before.serial);
    // The new issuing CA loads with the old sealed key.
    expect(() => loadIssuingCa(reissued, kek)).not.toThrow();

    const verify = (rootDer: Buffer) =>
      opensslText(
        ['verify', '-CAfile', '$D/root.pem', '-untrusted', '$D/issuing.pem', '$D/leaf.pem'],
        {
          'root.pem': toPem('CERTIFICATE', rootDer),
          'issuing.pem': reissued.issuing.certificatePem,
          'leaf.pem': toPem('CERTIFICATE', leaf.certificateDer),
        },
      );
    expect(verify(reissued.root.certificateDer)).toContain('OK');
    // Trust stores holding the old root accept the new chain: same name and key.
    expect(verify(old.root.certificateDer)).toContain('OK');
  });

  it('signs the root CRL with the root key (openssl verifies it against the root)', () => {
    const material = generateCaMaterial(kek);
    const thisUpdate = new Date('2026-11-01T00:00:00Z');
    const der = signRootCrl(material, kek, {
      crlNumber: 3,
      thisUpdate,
      nextUpdate: new Date(thisUpdate.getTime() + 7 * 86_400_000),
      entries: [],
    });
    const text = opensslText(
      ['crl', '-in', '$D/root.crl', '-CAfile', '$D/root.pem', '-noout', '-text'],
      { 'root.crl': toPem('X509 CRL', der), 'root.pem': material.root.certificatePem },
    );
    expect(text).toContain('verify OK');
    expect(text).toContain('Device Certificate Service Root CA');
    expect(() =>
      signRootCrl(material, Buffer.alloc(32, 6), {
        crlNumber: 4,
        thisUpdate,
        nextUpdate: new Date(thisUpdate.getTime() + 1000),
        entries: [],
      }),
    ).toThrow();
  });
});
