import { createHash, timingSafeEqual, type X509Certificate } from 'node:crypto';
import { AppAttestRefusal } from './app-attest-refusal';
import { parseAuthData } from './auth-data';
import { credentialNonce, uncompressedPoint, verifyX5c } from './attest-certificates';
import { CborError, decodeCbor, type CborValue } from './cbor';

/** Largest attestation object accepted (Apple's are about 5 KB). */
export const MAX_APP_ATTESTATION_BYTES = 16 * 1024;

/** AAGUIDs of App Attest keys: the production and the development environment. */
const AAGUID_PRODUCTION = Buffer.concat([Buffer.from('appattest'), Buffer.alloc(7)]);
const AAGUID_DEVELOPMENT = Buffer.from('appattestdevelop');

export interface AppAttestVerifyInput {
  /** The attestation object (CBOR) as the app's `attestKey` returned it. */
  attestation: Buffer;
  /** The server challenge as the app hashed it: clientDataHash = SHA-256(challenge). */
  challenge: Buffer;
  /** The key identifier the app sent (SHA-256 of the credential public key, 32 bytes). */
  keyId: Buffer;
  /** Accepted App IDs, `TEAMID.bundle.id`. */
  appIds: readonly string[];
  /** Accepted App Attest roots (Apple App Attestation Root CA in production). */
  roots: readonly X509Certificate[];
  /** Accept keys of the development environment (`appattestdevelop`) too. */
  allowDevelopment: boolean;
  now: Date;
}

export type AppAttestVerdict =
  | {
      ok: true;
      appId: string;
      environment: 'production' | 'development';
      /** SPKI DER of the attested key (to verify later assertions). */
      publicKeySpkiDer: Buffer;
      receipt: Buffer;
    }
  | { ok: false; reason: string };

const sha256 = (...parts: Buffer[]): Buffer => {
  const h = createHash('sha256');
  for (const part of parts) h.update(part);
  return h.digest();
};

const same = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

function field(map: CborValue, key: string): CborValue | undefined {
  return map instanceof Map ? map.get(key) : undefined;
}

function bytesOf(value: CborValue | undefined, what: string): Buffer {
  if (!Buffer.isBuffer(value)) throw new AppAttestRefusal(`${what} is not a byte string`);
  return value;
}

/**
 * Verifies an Apple App Attest attestation object the way Apple documents it ("Validating
 * apps that connect to your server"); never throws: a refusal carries its reason.
 */
export function verifyAppAttestation(input: AppAttestVerifyInput): AppAttestVerdict {
  try {
    return verify(input);
  } catch (error) {
    if (error instanceof AppAttestRefusal || error instanceof CborError) {
      return { ok: false, reason: error.message };
    }
    return { ok: false, reason: `unreadable attestation (${(error as Error).message})` };
  }
}

function verify(input: AppAttestVerifyInput): AppAttestVerdict {
  if (input.attestation.length > MAX_APP_ATTESTATION_BYTES) {
    throw new AppAttestRefusal('attestation object too large');
  }
  const object = decodeCbor(input.attestation);
  if (field(object, 'fmt') !== 'apple-appattest') {
    throw new AppAttestRefusal('fmt is not apple-appattest');
  }
  const statement = field(object, 'attStmt');
  const x5c = field(statement ?? null, 'x5c');
  if (!Array.isArray(x5c)) throw new AppAttestRefusal('attStmt.x5c is not an array');
  const receipt = bytesOf(field(statement ?? null, 'receipt'), 'attStmt.receipt');
  const authDataBytes = bytesOf(field(object, 'authData'), 'authData');

  // 1. The certificate chain up to a configured App Attest root.
  const credCert = verifyX5c(
    x5c.map((c, i) => bytesOf(c, `x5c[${i}]`)),
    input.roots,
    input.now,
  );
  // 2-4. nonce = SHA-256(authData | SHA-256(challenge)) is the credential certificate's.
  const nonce = sha256(authDataBytes, sha256(input.challenge));
  if (!same(credentialNonce(credCert.raw), nonce)) {
    throw new AppAttestRefusal('nonce does not match the challenge');
  }
  // 5. The key identifier is the SHA-256 of the credential key's uncompressed point.
  const keyId = sha256(uncompressedPoint(credCert));
  if (!same(keyId, input.keyId)) throw new AppAttestRefusal('key_id is not the attested key');
  const authData = parseAuthData(authDataBytes);
  // 6. The RP ID hash is the SHA-256 of an accepted App ID.
  const appId = input.appIds.find((id) => same(sha256(Buffer.from(id)), authData.rpIdHash));
  if (!appId) throw new AppAttestRefusal('rpIdHash is not an accepted App ID');
  // 7. A fresh key: counter 0.
  if (authData.signCount !== 0) throw new AppAttestRefusal('sign counter is not 0');
  // 8. The environment.
  let environment: 'production' | 'development';
  if (same(authData.aaguid, AAGUID_PRODUCTION)) environment = 'production';
  else if (input.allowDevelopment && same(authData.aaguid, AAGUID_DEVELOPMENT)) {
    environment = 'development';
  } else throw new AppAttestRefusal('aaguid is not an accepted App Attest environment');
  // 9. The credential id is the key identifier.
  if (!same(authData.credentialId, keyId)) {
    throw new AppAttestRefusal('credentialId is not the key identifier');
  }
  return {
    ok: true,
    appId,
    environment,
    publicKeySpkiDer: credCert.publicKey.export({ type: 'spki', format: 'der' }),
    receipt,
  };
}
