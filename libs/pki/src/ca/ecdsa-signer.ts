import { KeyObject, sign } from 'node:crypto';
import { CertificateSigner } from '../certificate/certificate-signer';
import { oid } from '../der/der-oid';
import { sequence } from '../der/der-tlv';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';

const ECDSA_SHA256 = sequence(oid(Oids.ecdsaWithSha256));

/** ECDSA P-256 / SHA-256 signer. The key lives in a private field and is never serialized. */
export class EcdsaP256Signer implements CertificateSigner {
  readonly algorithmIdentifierDer = ECDSA_SHA256;
  readonly #key: KeyObject;

  constructor(privateKey: KeyObject) {
    if (
      privateKey.type !== 'private' ||
      privateKey.asymmetricKeyType !== 'ec' ||
      privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1'
    ) {
      throw new PkiError('ca_material_invalid', 'CA key must be an ECDSA P-256 private key');
    }
    this.#key = privateKey;
  }

  sign(tbs: Buffer): Buffer {
    return sign('sha256', tbs, this.#key);
  }

  toJSON(): Record<string, string> {
    return { algorithm: 'ecdsa-with-SHA256' };
  }
}
