import { PkiError } from '../pki.errors';
import { ensureCaMaterial, generateCaMaterial } from './ca-bootstrap';
import { CaMaterial, CaMaterialStore } from './ca-material';
import { readCertificateInfo } from './certificate-info';
import { loadIssuingCa } from './issuing-ca';
import { Oids } from '../der/oids';

class MemoryStore implements CaMaterialStore {
  saved: CaMaterial | undefined;
  saves = 0;
  load(): Promise<CaMaterial | undefined> {
    return Promise.resolve(this.saved);
  }
  saveIfAbsent(material: CaMaterial): Promise<CaMaterial> {
    this.saves++;
    this.saved ??= material;
    return Promise.resolve(this.saved);
  }
}

describe('built-in CA bootstrap', () => {
  const kek = Buffer.alloc(32, 3);

  it('generates once at first start and reuses the stored CA afterwards', async () => {
    const store = new MemoryStore();
    const first = await ensureCaMaterial(store, kek, { organization: 'Example Corp' });
    const second = await ensureCaMaterial(store, kek);
    expect(second).toBe(first);
    expect(store.saves).toBe(1);
  });

  it('builds a 10-year root and a 5-year issuing CA chained by key identifiers', () => {
    const material = generateCaMaterial(kek, { now: new Date('2026-01-01T00:00:00Z') });
    const root = readCertificateInfo(material.root.certificateDer);
    const issuing = readCertificateInfo(material.issuing.certificateDer);
    expect(root.notAfter.getUTCFullYear() - root.notBefore.getUTCFullYear()).toBe(10);
    expect(issuing.notAfter.getUTCFullYear() - issuing.notBefore.getUTCFullYear()).toBe(5);
    expect(root.issuerDer).toEqual(root.subjectDer);
    expect(issuing.issuerDer).toEqual(root.subjectDer);
    expect(
      issuing.extensions.get(Oids.authorityKeyIdentifier)?.includes(root.subjectKeyIdentifier!),
    ).toBe(true);
    expect(issuing.extensions.get(Oids.basicConstraints)?.toString('hex')).toBe('30060101ff020100');
    expect(root.extensions.get(Oids.basicConstraints)?.toString('hex')).toBe('30030101ff');
    expect(material.root.certificatePem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
  });

  it('never exposes private keys and refuses a wrong key-encryption key', () => {
    const material = generateCaMaterial(kek);
    const serialized = JSON.stringify(material);
    expect(serialized).not.toMatch(/PRIVATE KEY/);
    expect(material.issuing.encryptedPrivateKey).toMatch(/^v1:/);
    const ca = loadIssuingCa(material, kek);
    expect(JSON.stringify(ca.signer)).toBe('{"algorithm":"ecdsa-with-SHA256"}');
    expect(() => loadIssuingCa(material, Buffer.alloc(32, 4))).toThrow(
      expect.objectContaining({ code: 'ca_key_decrypt_failed' }) as PkiError,
    );
    const swapped = {
      ...material,
      issuing: { ...material.issuing, encryptedPrivateKey: material.root.encryptedPrivateKey },
    };
    expect(() => loadIssuingCa(swapped, kek)).toThrow(
      expect.objectContaining({ code: 'ca_key_decrypt_failed' }) as PkiError,
    );
  });
});
