import { constants, verify } from 'node:crypto';
import { contextTag, DerTag } from '../der/der-tag';
import { DerElement, expectTag, readChildren, readInteger, readOid } from '../der/der-reader';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';
import { CsrPublicKey } from './csr-public-key';

type Hash = 'sha256' | 'sha384' | 'sha512';

/** How a signature is checked with node:crypto. */
export interface SignatureScheme {
  readonly name: string;
  readonly keyAlgorithm: 'rsa' | 'ec';
  readonly hash: Hash;
  readonly pssSaltLength?: number;
}

const SIMPLE: Record<string, SignatureScheme> = {
  [Oids.sha256WithRsa]: { name: 'sha256WithRSAEncryption', keyAlgorithm: 'rsa', hash: 'sha256' },
  [Oids.sha384WithRsa]: { name: 'sha384WithRSAEncryption', keyAlgorithm: 'rsa', hash: 'sha384' },
  [Oids.sha512WithRsa]: { name: 'sha512WithRSAEncryption', keyAlgorithm: 'rsa', hash: 'sha512' },
  [Oids.ecdsaWithSha256]: { name: 'ecdsa-with-SHA256', keyAlgorithm: 'ec', hash: 'sha256' },
  [Oids.ecdsaWithSha384]: { name: 'ecdsa-with-SHA384', keyAlgorithm: 'ec', hash: 'sha384' },
  [Oids.ecdsaWithSha512]: { name: 'ecdsa-with-SHA512', keyAlgorithm: 'ec', hash: 'sha512' },
};

const HASHES: Record<string, Hash> = {
  [Oids.sha256]: 'sha256',
  [Oids.sha384]: 'sha384',
  [Oids.sha512]: 'sha512',
};

function unsupported(message: string): PkiError {
  return new PkiError('csr_algorithm_unsupported', message);
}

function hashOf(algorithm: DerElement | undefined): Hash {
  const [id] = readChildren(expectTag(algorithm, DerTag.SEQUENCE, 'hash algorithm'));
  const hash = HASHES[readOid(id)];
  if (!hash) throw unsupported('RSA-PSS hash must be SHA-256, SHA-384 or SHA-512');
  return hash;
}

/** RSASSA-PSS-params: explicit SHA-2 hash, MGF1 with the same hash, trailer field 1. */
function pssScheme(parameters: DerElement | undefined): SignatureScheme {
  const fields = new Map(
    readChildren(expectTag(parameters, DerTag.SEQUENCE, 'RSA-PSS parameters')).map((f) => [
      f.tag,
      f,
    ]),
  );
  const hashField = fields.get(contextTag(0, true));
  if (!hashField) throw unsupported('RSA-PSS with SHA-1 is not supported');
  const hash = hashOf(readChildren(hashField)[0]);
  const mgfField = fields.get(contextTag(1, true));
  if (!mgfField) throw unsupported('RSA-PSS with MGF1-SHA1 is not supported');
  const [mgfOid, mgfHash] = readChildren(
    expectTag(readChildren(mgfField)[0], DerTag.SEQUENCE, 'MGF'),
  );
  if (readOid(mgfOid) !== Oids.mgf1 || hashOf(mgfHash) !== hash) {
    throw unsupported('RSA-PSS mask generation must be MGF1 with the signature hash');
  }
  const saltField = fields.get(contextTag(2, true));
  const salt = saltField ? readInteger(readChildren(saltField)[0]) : 20n;
  const trailerField = fields.get(contextTag(3, true));
  if (trailerField && readInteger(readChildren(trailerField)[0]) !== 1n) {
    throw unsupported('RSA-PSS trailer field must be 1');
  }
  if (salt < 0n || salt > 1024n) throw unsupported('RSA-PSS salt length out of range');
  return { name: 'RSASSA-PSS', keyAlgorithm: 'rsa', hash, pssSaltLength: Number(salt) };
}

/** Maps the signatureAlgorithm AlgorithmIdentifier to a supported scheme. */
export function readSignatureScheme(algorithm: DerElement): SignatureScheme {
  const [id, parameters] = readChildren(
    expectTag(algorithm, DerTag.SEQUENCE, 'AlgorithmIdentifier'),
  );
  const algorithmOid = readOid(id, 'signature algorithm');
  if (algorithmOid === Oids.rsassaPss) return pssScheme(parameters);
  const scheme = SIMPLE[algorithmOid];
  if (!scheme) throw unsupported(`signature algorithm ${algorithmOid} is not supported`);
  const paramsOk =
    scheme.keyAlgorithm === 'ec'
      ? parameters === undefined
      : parameters === undefined ||
        (parameters.tag === DerTag.NULL && parameters.content.length === 0);
  if (!paramsOk) throw new PkiError('csr_invalid', 'unexpected signature algorithm parameters');
  return scheme;
}

/** Verifies `signature` over `signed`; a mismatch of key and scheme counts as a bad signature. */
export function verifyCsrSignature(
  scheme: SignatureScheme,
  publicKey: CsrPublicKey,
  signed: Buffer,
  signature: Buffer,
): void {
  if (scheme.keyAlgorithm !== publicKey.keyAlgorithm) {
    throw new PkiError('csr_signature_invalid', 'signature algorithm does not match the CSR key');
  }
  let valid: boolean;
  try {
    valid =
      scheme.pssSaltLength === undefined
        ? verify(scheme.hash, signed, { key: publicKey.key, dsaEncoding: 'der' }, signature)
        : verify(
            scheme.hash,
            signed,
            {
              key: publicKey.key,
              padding: constants.RSA_PKCS1_PSS_PADDING,
              saltLength: scheme.pssSaltLength,
            },
            signature,
          );
  } catch {
    valid = false;
  }
  if (!valid) throw new PkiError('csr_signature_invalid', 'CSR signature does not match its key');
}
