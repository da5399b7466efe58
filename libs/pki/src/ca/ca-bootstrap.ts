import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { keyIdentifierOf, type RevocationPointers } from '../certificate/extensions';
import { addLifetime } from '../certificate/lifetime';
import { encodeCaName } from '../certificate/subject-name';
import { toPem } from '../der/pem';
import { buildCaCertificate } from './ca-certificate-builder';
import { CA_KEY_LABELS, CaCertificateMaterial, CaMaterial, CaMaterialStore } from './ca-material';
import { EcdsaP256Signer } from './ecdsa-signer';
import { sealPrivateKey } from './key-envelope';

export interface CaGenerationOptions {
  readonly organization?: string;
  readonly rootCommonName?: string;
  readonly issuingCommonName?: string;
  readonly now?: Date;
  /** CDP (root CRL) placed in the root certificate. */
  readonly rootPointers?: RevocationPointers;
  /** CDP (root CRL) and AIA (root certificate) placed in the issuing CA certificate. */
  readonly issuingPointers?: RevocationPointers;
}

const ROOT_YEARS = 10;
const ISSUING_YEARS = 5;
const BACKDATE_MS = 5 * 60_000;

function newKey(): { privateKey: KeyObject; spkiDer: Buffer } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, spkiDer: publicKey.export({ format: 'der', type: 'spki' }) };
}

function material(
  certificateDer: Buffer,
  key: KeyObject,
  kek: Buffer,
  label: string,
): CaCertificateMaterial {
  const pkcs8 = key.export({ format: 'der', type: 'pkcs8' });
  try {
    return {
      certificateDer,
      certificatePem: toPem('CERTIFICATE', certificateDer),
      encryptedPrivateKey: sealPrivateKey(pkcs8, kek, label),
    };
  } finally {
    pkcs8.fill(0);
  }
}

/**
 * Generates the built-in CA: an ECDSA P-256 root (self-signed, 10 years) and an issuing CA
 * signed by it (5 years, pathLen 0). Private keys leave this function only sealed.
 */
export function generateCaMaterial(kek: Buffer, options: CaGenerationOptions = {}): CaMaterial {
  const now = options.now ?? new Date();
  const start = new Date(Math.floor((now.getTime() - BACKDATE_MS) / 1000) * 1000);
  const rootName = encodeCaName(
    options.rootCommonName ?? 'Device Certificate Service Root CA',
    options.organization,
  );
  const issuingName = encodeCaName(
    options.issuingCommonName ?? 'Device Certificate Service Issuing CA',
    options.organization,
  );
  const root = newKey();
  const rootSigner = new EcdsaP256Signer(root.privateKey);
  const rootKeyId = keyIdentifierOf(root.spkiDer);
  const rootDer = buildCaCertificate({
    subjectDer: rootName,
    issuerDer: rootName,
    issuerKeyId: rootKeyId,
    spkiDer: root.spkiDer,
    notBefore: start,
    notAfter: addLifetime(start, { unit: 'years', amount: ROOT_YEARS }),
    signer: rootSigner,
    pointers: options.rootPointers,
  });
  const issuing = newKey();
  const issuingDer = buildCaCertificate({
    subjectDer: issuingName,
    issuerDer: rootName,
    issuerKeyId: rootKeyId,
    spkiDer: issuing.spkiDer,
    notBefore: start,
    notAfter: addLifetime(start, { unit: 'years', amount: ISSUING_YEARS }),
    pathLength: 0,
    signer: rootSigner,
    pointers: options.issuingPointers,
  });
  return {
    formatVersion: 1,
    root: material(rootDer, root.privateKey, kek, CA_KEY_LABELS.root),
    issuing: material(issuingDer, issuing.privateKey, kek, CA_KEY_LABELS.issuing),
    createdAt: now,
  };
}

/** Loads the CA from the store, generating and saving it at first start. */
export async function ensureCaMaterial(
  store: CaMaterialStore,
  kek: Buffer,
  options: CaGenerationOptions = {},
): Promise<CaMaterial> {
  const existing = await store.load();
  if (existing) return existing;
  return store.saveIfAbsent(generateCaMaterial(kek, options));
}
