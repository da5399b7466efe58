// Test support (used by specs and benchmarks only): builds PKCS#10 CSRs with node:crypto,
// including deliberately broken ones.
import { createHash, generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { bitString, derNull, integer, octetString } from '../der/der-primitives';
import { oid } from '../der/der-oid';
import { utf8String } from '../der/der-string';
import { explicit, implicit, sequence, setOf, tlv } from '../der/der-tlv';
import { contextTag, DerTag } from '../der/der-tag';
import { Oids } from '../der/oids';

export interface TestKeyPair {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

export function ecKeyPair(namedCurve = 'P-256'): TestKeyPair {
  return generateKeyPairSync('ec', { namedCurve });
}

export function rsaKeyPair(modulusLength = 2048): TestKeyPair {
  return generateKeyPairSync('rsa', { modulusLength });
}

/** One subject attribute; a string value is UTF-8 encoded, a Buffer is written as is. */
export interface SubjectAttribute {
  readonly oid: string;
  readonly value: string | Buffer;
  /** String type tag (default UTF8String). */
  readonly tag?: number;
}

export interface CsrOptions {
  readonly keyPair: TestKeyPair;
  readonly commonName?: string;
  /** Subject attributes, one per RDN; replaces `commonName` when given. */
  readonly subject?: readonly SubjectAttribute[];
  readonly version?: number;
  /** DNS names requested through an extensionRequest attribute. */
  readonly dnsNames?: readonly string[];
  readonly emails?: readonly string[];
  readonly uris?: readonly string[];
  /** UPN requested as otherName SAN. */
  readonly upn?: string;
  /** Overrides the signature AlgorithmIdentifier (signature still made with `hash`). */
  readonly algorithmIdentifier?: Buffer;
  readonly hash?: string | null;
}

const DEFAULT_ALGORITHMS: Record<string, { algorithm: Buffer; hash: string | null }> = {
  rsa: { algorithm: sequence(oid(Oids.sha256WithRsa), derNull()), hash: 'sha256' },
  ec: { algorithm: sequence(oid(Oids.ecdsaWithSha256)), hash: 'sha256' },
  ed25519: { algorithm: sequence(oid('1.3.101.112')), hash: null },
  dsa: { algorithm: sequence(oid('2.16.840.1.101.3.4.3.2')), hash: 'sha256' },
};

function defaultAlgorithm(key: KeyObject): { algorithm: Buffer; hash: string | null } {
  const algorithm = DEFAULT_ALGORITHMS[key.asymmetricKeyType ?? ''];
  if (!algorithm) throw new Error(`unsupported test key ${String(key.asymmetricKeyType)}`);
  return algorithm;
}

function requestedExtensions(options: Omit<CsrOptions, 'keyPair'>): Buffer {
  const names = [
    ...(options.emails ?? []).map((email) => implicit(1, false, Buffer.from(email))),
    ...(options.dnsNames ?? []).map((dns) => implicit(2, false, Buffer.from(dns))),
    ...(options.uris ?? []).map((uri) => implicit(6, false, Buffer.from(uri))),
  ];
  if (options.upn) {
    names.push(
      tlv(contextTag(0, true), oid(Oids.upnOtherName), explicit(0, utf8String(options.upn))),
    );
  }
  if (names.length === 0) return implicit(0, true, Buffer.alloc(0));
  const san = sequence(oid(Oids.subjectAltName), octetString(sequence(...names)));
  const attribute = sequence(oid(Oids.extensionRequest), setOf(sequence(san)));
  return implicit(0, true, attribute);
}

/** DER CSR signed by `keyPair`. */
export function makeCsr(options: CsrOptions): Buffer {
  const defaults = defaultAlgorithm(options.keyPair.privateKey);
  const info = csrInfo(options, options.keyPair.publicKey);
  const hash = options.hash === undefined ? defaults.hash : options.hash;
  const signature = sign(hash, info, options.keyPair.privateKey);
  return sequence(info, options.algorithmIdentifier ?? defaults.algorithm, bitString(signature));
}

/**
 * DER CSR whose signature comes from outside node:crypto — a key inside a TPM signs
 * SHA-256 of the CertificationRequestInfo (`tpm2_sign -d`). `sign` gets that digest and
 * returns a DER ECDSA or PKCS#1 v1.5 signature.
 */
export async function makeCsrWithSigner(
  options: Omit<CsrOptions, 'keyPair'> & {
    publicKey: KeyObject;
    sign: (sha256Digest: Buffer) => Promise<Buffer>;
  },
): Promise<Buffer> {
  const defaults = defaultAlgorithm(options.publicKey);
  const info = csrInfo(options, options.publicKey);
  const signature = await options.sign(createHash('sha256').update(info).digest());
  return sequence(info, options.algorithmIdentifier ?? defaults.algorithm, bitString(signature));
}

function csrInfo(options: Omit<CsrOptions, 'keyPair'>, publicKey: KeyObject): Buffer {
  const attributes =
    options.subject ??
    (options.commonName ? [{ oid: Oids.commonName, value: options.commonName }] : []);
  const subject = sequence(
    ...attributes.map((a) =>
      setOf(sequence(oid(a.oid), tlv(a.tag ?? DerTag.UTF8_STRING, Buffer.from(a.value)))),
    ),
  );
  return sequence(
    integer(options.version ?? 0),
    subject,
    publicKey.export({ format: 'der', type: 'spki' }),
    requestedExtensions(options),
  );
}

/** Copy of `der` with one byte of the signature flipped. */
export function flipLastByte(der: Buffer): Buffer {
  const copy = Buffer.from(der);
  copy[copy.length - 1] ^= 0x01;
  return copy;
}
