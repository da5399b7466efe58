import { X509Certificate } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTpmStateWithEkCert } from '../support/swtpm-ek';

// The helper itself: three TPMs manufactured in parallel, each with its own local root and an
// EK certificate that chains EK -> intermediate -> root with real signatures.
describe('createTpmStateWithEkCert (swtpm_setup + swtpm_localca)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('manufactures independent TPMs with chained RSA EK certificates', async () => {
    const states = await Promise.all(
      [0, 1, 2].map(async () => {
        const dir = await mkdtemp(join(tmpdir(), 'swtpm-ek-'));
        dirs.push(dir);
        return createTpmStateWithEkCert(dir);
      }),
    );
    const roots = new Set<string>();
    for (const s of states) {
      const ek = new X509Certificate(s.ekCertDer);
      const [intermediate] = s.intermediatesDer.map((d) => new X509Certificate(d));
      const root = new X509Certificate(s.vendorRootPem);
      expect(ek.publicKey.asymmetricKeyType).toBe('rsa');
      expect(ek.checkIssued(intermediate!)).toBe(true);
      expect(ek.verify(intermediate!.publicKey)).toBe(true);
      expect(intermediate!.verify(root.publicKey)).toBe(true);
      expect(root.verify(root.publicKey)).toBe(true);
      expect(dirs.some((d) => s.stateDir === join(d, 'state'))).toBe(true);
      roots.add(root.fingerprint256);
      // the local CA swtpm_localca created lives in the caller's directory, not /var/lib
      const caFiles = await readdir(join(s.stateDir, '..', 'ca'));
      expect(caFiles).toEqual(
        expect.arrayContaining(['swtpm-localca-rootca-cert.pem', 'issuercert.pem', 'signkey.pem']),
      );
    }
    expect(roots.size).toBe(3);
  });
});
