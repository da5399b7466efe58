import { sign, type KeyObject } from 'node:crypto';
import {
  bitString,
  contextConstructed,
  objectIdentifier,
  sequence,
  set,
  smallInteger,
  toPem,
  utf8String,
} from './der';

const OID_COMMON_NAME = '2.5.4.3';
const OID_ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const OID_SHA256_WITH_RSA = '1.2.840.113549.1.1.11';

/**
 * Signs the DER CertificationRequestInfo with SHA-256; returns DER ECDSA or PKCS#1 v1.5 bytes.
 * A TPM-resident key hashes the bytes and signs the digest (`tpm2_sign -d`).
 */
export type CsrSigner = (requestInfo: Buffer) => Promise<Buffer>;

function signatureAlgorithm(publicKey: KeyObject): Buffer {
  if (publicKey.asymmetricKeyType === 'ec')
    return sequence(objectIdentifier(OID_ECDSA_WITH_SHA256));
  if (publicKey.asymmetricKeyType === 'rsa') {
    return sequence(objectIdentifier(OID_SHA256_WITH_RSA), Buffer.from([0x05, 0x00]));
  }
  throw new Error(`unsupported key type ${String(publicKey.asymmetricKeyType)}`);
}

/** CertificationRequestInfo (RFC 2986): version 0, subject CN, the key, no attributes. */
function requestInfo(commonName: string, publicKey: KeyObject): Buffer {
  const subject = sequence(
    set(sequence(objectIdentifier(OID_COMMON_NAME), utf8String(commonName))),
  );
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return sequence(smallInteger(0), subject, spki, contextConstructed(0));
}

/** PEM CSR whose signature comes from `signer` (a TPM-resident key, or a software key). */
export async function buildCsrPem(
  commonName: string,
  publicKey: KeyObject,
  signer: CsrSigner,
): Promise<string> {
  const info = requestInfo(commonName, publicKey);
  const signature = await signer(info);
  const der = sequence(info, signatureAlgorithm(publicKey), bitString(signature));
  return toPem('CERTIFICATE REQUEST', der);
}

/** A signer over a software private key. */
export function softwareSigner(privateKey: KeyObject): CsrSigner {
  return (info) => Promise.resolve(sign('sha256', info, { key: privateKey, dsaEncoding: 'der' }));
}
