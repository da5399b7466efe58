import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { parseCsr } from '@platform/pki';
import { buildCsrPem, softwareSigner } from './csr';

/** `openssl req -verify` output (3.0 exits 0 on a bad self-signature: read what it says). */
function opensslReqVerify(pem: string): string {
  const run = spawnSync('openssl', ['req', '-verify', '-noout', '-subject'], { input: pem });
  return `${run.stdout.toString()}${run.stderr.toString()}`;
}

describe('buildCsrPem', () => {
  it.each([
    ['EC P-256', generateKeyPairSync('ec', { namedCurve: 'P-256' })],
    ['RSA 2048', generateKeyPairSync('rsa', { modulusLength: 2048 })],
  ])('builds a %s CSR that openssl verifies and the service parses', async (_, keys) => {
    const pem = await buildCsrPem('SN-ÄGENT-1', keys.publicKey, softwareSigner(keys.privateKey));
    const text = opensslReqVerify(pem);
    expect(text).toMatch(/verify OK/);
    expect(text).toContain('CN');
    const parsed = parseCsr(Buffer.from(pem));
    expect(parsed.subjectCommonName).toBe('SN-ÄGENT-1');
    expect(
      parsed.publicKeySpkiDer.equals(keys.publicKey.export({ format: 'der', type: 'spki' })),
    ).toBe(true);
  });

  it('a CSR whose signature is not the key’s fails openssl verification', async () => {
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = await buildCsrPem('SN-1', keys.publicKey, softwareSigner(other.privateKey));
    expect(opensslReqVerify(pem)).toMatch(/verify failure/);
  });
});
