import {
  createPrivateKey,
  generateKeyPairSync,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import { PkiError } from '../pki.errors';
import { buildCertificate, KeyUsageBits } from './scep-x509';

/**
 * The requester identity of the SCEP issuer. The service forwards a device's CSR: it never
 * holds the device key, so it cannot sign the SCEP pkiMessage with it. It signs with a key
 * of its own and a self-signed certificate (RFC 8894 section 2.3 allows a self-signed
 * requester certificate); the CA encrypts its CertRep to that certificate, so only the
 * service can read the issued certificate. The CSR inside stays signed by the device key,
 * which proves possession to the CA. Stored with the issuer profile (the key is a secret).
 */
export interface ScepRequesterConfig {
  /** PKCS#8 PEM of an RSA key (SCEP key transport is RSA). */
  readonly keyPem: string;
  /** PEM of the self-signed certificate of that key. */
  readonly certificatePem: string;
}

export interface ScepRequester {
  readonly privateKey: KeyObject;
  readonly certificateDer: Buffer;
}

/** A fresh RSA-2048 requester key and a self-signed certificate (10 years). */
export function generateScepRequester(
  commonName = 'certificate-service SCEP requester',
): ScepRequesterConfig {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificateDer = buildCertificate({
    subject: commonName,
    publicKey,
    signingKey: privateKey,
    keyUsage: KeyUsageBits.digitalSignature | KeyUsageBits.keyEncipherment,
    days: 3650,
  });
  return {
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificatePem: new X509Certificate(certificateDer).toString(),
  };
}

/** Loads and checks a requester: an RSA key matching its certificate. */
export function loadScepRequester(config: ScepRequesterConfig): ScepRequester {
  let privateKey: KeyObject;
  let certificate: X509Certificate;
  try {
    privateKey = createPrivateKey(config.keyPem);
    certificate = new X509Certificate(config.certificatePem);
  } catch {
    throw new PkiError(
      'scep_config_invalid',
      'the SCEP requester key or certificate is not valid PEM',
    );
  }
  if (privateKey.asymmetricKeyType !== 'rsa') {
    throw new PkiError('scep_config_invalid', 'the SCEP requester key must be RSA');
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new PkiError(
      'scep_config_invalid',
      'the SCEP requester certificate does not match its key',
    );
  }
  return { privateKey, certificateDer: certificate.raw };
}
