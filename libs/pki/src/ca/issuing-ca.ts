import { createPrivateKey, createPublicKey, KeyObject } from 'node:crypto';
import { IssuingAuthority } from '../certificate/certificate-signer';
import { PkiError } from '../pki.errors';
import { CA_KEY_LABELS, CaMaterial } from './ca-material';
import { CertificateInfo, readCertificateInfo } from './certificate-info';
import { EcdsaP256Signer } from './ecdsa-signer';
import { openPrivateKey } from './key-envelope';

/** The issuing CA ready to sign, with the chain to hand out. The root key stays sealed. */
export interface LoadedIssuingCa extends IssuingAuthority {
  readonly rootCertificateDer: Buffer;
  /** Issuing CA first, then the root. */
  readonly chainDer: readonly Buffer[];
}

function importKey(pkcs8: Buffer): KeyObject {
  try {
    return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  } catch {
    throw new PkiError('ca_material_invalid', 'issuing CA private key is not valid PKCS#8');
  } finally {
    pkcs8.fill(0);
  }
}

function readStoredCertificates(material: CaMaterial): CertificateInfo {
  try {
    readCertificateInfo(material.root.certificateDer);
    return readCertificateInfo(material.issuing.certificateDer);
  } catch {
    throw new PkiError('ca_material_invalid', 'stored CA certificates cannot be read');
  }
}

/** Decrypts the issuing CA key and checks that it matches the issuing CA certificate. */
export function loadIssuingCa(material: CaMaterial, kek: Buffer): LoadedIssuingCa {
  const info = readStoredCertificates(material);
  const key = importKey(
    openPrivateKey(material.issuing.encryptedPrivateKey, kek, CA_KEY_LABELS.issuing),
  );
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  if (!spki.equals(info.spkiDer)) {
    throw new PkiError('ca_material_invalid', 'issuing CA key does not match its certificate');
  }
  if (!info.subjectKeyIdentifier) {
    throw new PkiError('ca_material_invalid', 'issuing CA certificate lacks a key identifier');
  }
  return {
    nameDer: Buffer.from(info.subjectDer),
    keyIdentifier: Buffer.from(info.subjectKeyIdentifier),
    notBefore: info.notBefore,
    notAfter: info.notAfter,
    certificateDer: material.issuing.certificateDer,
    rootCertificateDer: material.root.certificateDer,
    chainDer: [material.issuing.certificateDer, material.root.certificateDer],
    signer: new EcdsaP256Signer(key),
  };
}
