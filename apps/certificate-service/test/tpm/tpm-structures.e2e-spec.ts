import { X509Certificate } from 'node:crypto';
import {
  makeCredential,
  parseCsr,
  parseTpmAttest,
  parseTpmPublic,
  samePublicKey,
  tpmQualifyingData,
  TpmFormatError,
  verifyTpmSignature,
} from '@platform/pki';
import { SwtpmDevice } from '../support/swtpm-device';

/**
 * The TPM 2.0 structures of libs/pki/src/tpm against a real software TPM (swtpm driven by
 * tpm2-tools): what the server computes must be what the TPM computes and accepts.
 */
describe('TPM structures against swtpm', () => {
  let tpm: SwtpmDevice;
  let other: SwtpmDevice;

  beforeAll(async () => {
    [tpm, other] = await Promise.all([SwtpmDevice.start(), SwtpmDevice.start()]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([tpm?.stop(), other?.stop()]);
  });

  it('computes the AK name tpm2_createak reports and reads its attributes', async () => {
    const ak = parseTpmPublic(tpm.akPublic);
    const { readFile } = await import('node:fs/promises');
    const name = await readFile(`${tpm.dir}/ak.name`);
    expect(ak.name.equals(name)).toBe(true);
    expect(ak.type).toBe('ecc');
    expect(ak.attributes).toMatchObject({
      fixedTPM: true,
      fixedParent: true,
      sensitiveDataOrigin: true,
      restricted: true,
      sign: true,
      decrypt: false,
    });
  });

  it('makes a credential the TPM releases through ActivateCredential', async () => {
    const ak = parseTpmPublic(tpm.akPublic);
    const ekKey = new X509Certificate(tpm.ek.ekCertDer).publicKey;
    const made = makeCredential(ekKey, ak.name);
    const released = await tpm.activate({
      credential_blob: made.credentialBlob.toString('base64'),
      encrypted_secret: made.encryptedSecret.toString('base64'),
    });
    expect(released.equals(made.credential)).toBe(true);
  });

  it('a credential made for another TPM’s AK is refused by this TPM', async () => {
    const foreignAk = parseTpmPublic(other.akPublic);
    const ekKey = new X509Certificate(tpm.ek.ekCertDer).publicKey;
    const made = makeCredential(ekKey, foreignAk.name);
    await expect(
      tpm.activate({
        credential_blob: made.credentialBlob.toString('base64'),
        encrypted_secret: made.encryptedSecret.toString('base64'),
      }),
    ).rejects.toThrow(/tpm2_activatecredential failed/);
  });

  it('verifies a quote over the nonce and a certify of the CSR key with the AK', async () => {
    const ak = parseTpmPublic(tpm.akPublic);
    const quote = await tpm.quote('nonce-1');
    const parsedQuote = parseTpmAttest(quote.info);
    expect(parsedQuote.type).toBe('quote');
    expect(parsedQuote.extraData.equals(tpmQualifyingData('nonce-1'))).toBe(true);
    expect(verifyTpmSignature(ak.publicKey, quote.info, quote.signature)).toBe(true);
    const foreign = parseTpmPublic(other.akPublic);
    expect(verifyTpmSignature(foreign.publicKey, quote.info, quote.signature)).toBe(false);

    const certify = await tpm.certify();
    const parsed = parseTpmAttest(certify.info);
    const key = parseTpmPublic(tpm.keyPublic);
    expect(parsed.type).toBe('certify');
    expect(parsed.certifiedName?.equals(key.name)).toBe(true);
    expect(verifyTpmSignature(ak.publicKey, certify.info, certify.signature)).toBe(true);
    const tampered = Buffer.from(certify.info);
    tampered[tampered.length - 1] ^= 1;
    expect(verifyTpmSignature(ak.publicKey, tampered, certify.signature)).toBe(false);
  });

  it('a CSR signed inside the TPM carries the TPM key', async () => {
    const csr = parseCsr(await tpm.csr('tpm-device'));
    const key = parseTpmPublic(tpm.keyPublic);
    const { createPublicKey } = await import('node:crypto');
    const csrKey = createPublicKey({ key: csr.publicKeySpkiDer, format: 'der', type: 'spki' });
    expect(samePublicKey(csrKey, key.publicKey)).toBe(true);
    expect(key.attributes.fixedTPM && key.attributes.sensitiveDataOrigin).toBe(true);
  });

  it('refuses malformed structures with TpmFormatError', () => {
    for (const bad of [
      Buffer.alloc(0),
      Buffer.from('00'),
      tpm.akPublic.subarray(0, 20),
      Buffer.concat([tpm.akPublic, Buffer.from([0])]),
    ]) {
      expect(() => parseTpmPublic(bad)).toThrow(TpmFormatError);
    }
    expect(() => parseTpmAttest(Buffer.from('ff54434780170000', 'hex'))).toThrow(TpmFormatError);
    expect(() => parseTpmAttest(Buffer.alloc(8))).toThrow(TpmFormatError);
  });
});
