import { createPrivateKey, createPublicKey, KeyObject } from 'node:crypto';
import { IssuingAuthority } from '../certificate/certificate-signer';
import { revocationPointerExtensions, RevocationPointers } from '../certificate/extensions';
import { toPem } from '../der/pem';
import { readCertificateInfo } from './certificate-info';
import { CrlInput, encodeCrl } from '../crl/crl-encoder';
import { PkiError } from '../pki.errors';
import { buildCaCertificate } from './ca-certificate-builder';
import { CA_KEY_LABELS, CaMaterial } from './ca-material';
import { EcdsaP256Signer } from './ecdsa-signer';
import { openPrivateKey } from './key-envelope';

/**
 * Runs `use` with the root CA as a signing authority. The root key is opened only for this
 * call (root CRL, re-issue of the issuing CA certificate) and its PKCS#8 bytes are wiped.
 */
function withRootAuthority<T>(
  material: CaMaterial,
  kek: Buffer,
  use: (root: IssuingAuthority) => T,
): T {
  const info = readCertificateInfo(material.root.certificateDer);
  const pkcs8 = openPrivateKey(material.root.encryptedPrivateKey, kek, CA_KEY_LABELS.root);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  } catch {
    throw new PkiError('ca_material_invalid', 'root CA private key is not valid PKCS#8');
  } finally {
    pkcs8.fill(0);
  }
  if (!createPublicKey(key).export({ format: 'der', type: 'spki' }).equals(info.spkiDer)) {
    throw new PkiError('ca_material_invalid', 'root CA key does not match its certificate');
  }
  if (!info.subjectKeyIdentifier) {
    throw new PkiError('ca_material_invalid', 'root CA certificate lacks a key identifier');
  }
  return use({
    nameDer: Buffer.from(info.subjectDer),
    keyIdentifier: Buffer.from(info.subjectKeyIdentifier),
    notBefore: info.notBefore,
    notAfter: info.notAfter,
    certificateDer: material.root.certificateDer,
    signer: new EcdsaP256Signer(key),
  });
}

/** The root CA's own CRL (revoked issuing CAs; normally no entry), signed by the root key. */
export function signRootCrl(material: CaMaterial, kek: Buffer, input: CrlInput): Buffer {
  return withRootAuthority(material, kek, (root) => encodeCrl(root, input));
}

/** CDP / AIA wanted in the root (self-signed) and the issuing CA certificate. */
export interface CaCertificatePointers {
  readonly root: RevocationPointers;
  readonly issuing: RevocationPointers;
}

/**
 * True when both CA certificates carry exactly the CDP / AIA extensions `pointers` asks for
 * (byte for byte), so no re-issue is needed.
 */
export function caCertificatesHavePointers(
  material: CaMaterial,
  pointers: CaCertificatePointers,
): boolean {
  const has = (der: Buffer, wanted: RevocationPointers) =>
    revocationPointerExtensions(wanted).every((extension) => der.includes(extension));
  return (
    has(material.root.certificateDer, pointers.root) &&
    has(material.issuing.certificateDer, pointers.issuing)
  );
}

function withCertificate(current: CaMaterial['root'], certificateDer: Buffer): CaMaterial['root'] {
  return { ...current, certificateDer, certificatePem: toPem('CERTIFICATE', certificateDer) };
}

/**
 * Both CA certificates signed again by the root under the same keys, names and validity, now
 * with `pointers` (the root: CDP of its own CRL; the issuing CA: CDP of the root CRL and AIA
 * of the root certificate). Every certificate issued before still chains (same names and key
 * identifiers), and the old root stays a valid trust anchor for the same key. The sealed keys
 * are kept as they are.
 */
export function reissueCaCertificates(
  material: CaMaterial,
  kek: Buffer,
  pointers: CaCertificatePointers,
): CaMaterial {
  const issuing = readCertificateInfo(material.issuing.certificateDer);
  return withRootAuthority(material, kek, (root) => {
    const rootInfo = readCertificateInfo(material.root.certificateDer);
    const rootDer = buildCaCertificate({
      subjectDer: root.nameDer,
      issuerDer: root.nameDer,
      issuerKeyId: root.keyIdentifier,
      spkiDer: rootInfo.spkiDer,
      notBefore: root.notBefore,
      notAfter: root.notAfter,
      signer: root.signer,
      pointers: pointers.root,
    });
    const issuingDer = buildCaCertificate({
      subjectDer: issuing.subjectDer,
      issuerDer: root.nameDer,
      issuerKeyId: root.keyIdentifier,
      spkiDer: issuing.spkiDer,
      notBefore: issuing.notBefore,
      notAfter: issuing.notAfter,
      pathLength: 0,
      signer: root.signer,
      pointers: pointers.issuing,
    });
    return {
      ...material,
      root: withCertificate(material.root, rootDer),
      issuing: withCertificate(material.issuing, issuingDer),
    };
  });
}
