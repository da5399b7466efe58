import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { basicConstraintsExtension, extension } from '../certificate/extensions';
import { bitString, integer, octetString } from '../der/der-primitives';
import { oid } from '../der/der-oid';
import { utf8String } from '../der/der-string';
import { x509Time } from '../der/der-time';
import { explicit, sequence, setOf } from '../der/der-tlv';
import { APP_ATTEST_NONCE_OID } from '../app-attest/attest-certificates';

/** What the test CBOR encoder writes (the attestation object's shapes). */
export type TestCborValue = number | string | Buffer | TestCborValue[] | Map<string, TestCborValue>;

function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  if (value < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(value, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(value, 1);
  return b;
}

/** A minimal definite-length CBOR encoder for tests. */
export function encodeTestCbor(value: TestCborValue): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value))
    return Buffer.concat([head(4, value.length), ...value.map(encodeTestCbor)]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(encodeTestCbor(k), encodeTestCbor(v));
  return Buffer.concat(parts);
}

const ECDSA_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const DAY = 86_400_000;

function name(commonName: string): Buffer {
  return sequence(setOf(sequence(oid('2.5.4.3'), utf8String(commonName))));
}

export interface TestCa {
  name: string;
  key: KeyObject;
  der: Buffer;
}

function p256(): { publicKey: KeyObject; privateKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

function certificate(options: {
  subject: string;
  issuer: TestCa | null;
  publicKey: KeyObject;
  signingKey: KeyObject;
  extensions: Buffer[];
  notBefore?: Date;
  notAfter?: Date;
}): Buffer {
  const now = Date.now();
  const tbs = sequence(
    explicit(0, integer(2)),
    integer(randomBytes(8)),
    ECDSA_SHA256,
    name(options.issuer?.name ?? options.subject),
    sequence(
      x509Time(options.notBefore ?? new Date(now - DAY)),
      x509Time(options.notAfter ?? new Date(now + 365 * DAY)),
    ),
    name(options.subject),
    options.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...options.extensions)),
  );
  return sequence(tbs, ECDSA_SHA256, bitString(sign('sha256', tbs, options.signingKey)));
}

/** A self-signed test CA (the stand-in of Apple's App Attestation Root CA). */
export function testAppAttestRoot(commonName = 'Test App Attestation Root CA'): TestCa {
  const keys = p256();
  const der = certificate({
    subject: commonName,
    issuer: null,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    extensions: [basicConstraintsExtension(true)],
  });
  return { name: commonName, key: keys.privateKey, der };
}

/** An intermediate CA under `root` (Apple's "Apple App Attestation CA 1"). */
export function testAppAttestIntermediate(
  root: TestCa,
  commonName = 'Test App Attestation CA 1',
): TestCa {
  const keys = p256();
  const der = certificate({
    subject: commonName,
    issuer: root,
    publicKey: keys.publicKey,
    signingKey: root.key,
    extensions: [basicConstraintsExtension(true, 0)],
  });
  return { name: commonName, key: keys.privateKey, der };
}

export interface TestAttestationOptions {
  intermediate: TestCa;
  /** The challenge bytes the app hashes into clientDataHash. */
  challenge: Buffer;
  appId: string;
  signCount?: number;
  aaguid?: Buffer;
  /** Replaces the credential id in authData (default: the key id). */
  credentialId?: Buffer;
  /** Replaces the nonce written in the credential certificate. */
  nonce?: Buffer;
  /** Leaves the intermediate out of x5c. */
  omitIntermediate?: boolean;
}

export interface TestAttestation {
  attestation: Buffer;
  keyId: Buffer;
  credentialKey: KeyObject;
}

const sha256 = (...parts: Buffer[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

export const APP_ATTEST_AAGUID_PRODUCTION = Buffer.concat([
  Buffer.from('appattest'),
  Buffer.alloc(7),
]);
export const APP_ATTEST_AAGUID_DEVELOPMENT = Buffer.from('appattestdevelop');

/** An App Attest attestation object built per Apple's layout, signed by `intermediate`. */
export function testAppAttestation(options: TestAttestationOptions): TestAttestation {
  const keys = p256();
  const jwk = keys.publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([
    Buffer.from([0x04]),
    Buffer.from(jwk.x ?? '', 'base64url'),
    Buffer.from(jwk.y ?? '', 'base64url'),
  ]);
  const keyId = sha256(point);
  const credentialId = options.credentialId ?? keyId;
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(options.signCount ?? 0);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credentialId.length);
  const authData = Buffer.concat([
    sha256(Buffer.from(options.appId)),
    Buffer.from([0x41]), // user present + attested credential data
    counter,
    options.aaguid ?? APP_ATTEST_AAGUID_PRODUCTION,
    idLength,
    credentialId,
    encodeTestCbor(new Map<string, TestCborValue>([['1', 2]])), // stand-in COSE key (not read)
  ]);
  const nonce = options.nonce ?? sha256(authData, sha256(options.challenge));
  const credCert = certificate({
    subject: keyId.toString('hex'),
    issuer: options.intermediate,
    publicKey: keys.publicKey,
    signingKey: options.intermediate.key,
    extensions: [
      basicConstraintsExtension(false),
      extension(APP_ATTEST_NONCE_OID, false, sequence(explicit(1, octetString(nonce)))),
    ],
  });
  const x5c = options.omitIntermediate ? [credCert] : [credCert, options.intermediate.der];
  const attestation = encodeTestCbor(
    new Map<string, TestCborValue>([
      ['fmt', 'apple-appattest'],
      [
        'attStmt',
        new Map<string, TestCborValue>([
          ['x5c', x5c],
          ['receipt', randomBytes(64)],
        ]),
      ],
      ['authData', authData],
    ]),
  );
  return { attestation, keyId, credentialKey: keys.privateKey };
}
