import { randomFillSync } from 'node:crypto';
import { PkiError } from '../pki.errors';
import { keyFieldsOf, type SshKeyType } from './ssh-public-key';
import { SshWriter } from './ssh-wire';

/** Certificate type field: user certificates only (host certificates are not issued). */
export const SSH_CERT_TYPE_USER = 1;

/**
 * Extensions of every user certificate (PROTOCOL.certkeys "Extensions"): an interactive
 * session, port and agent forwarding. Not granted: `permit-X11-forwarding` (an X server on a
 * target host is rarely wanted and widens the attack surface) and `permit-user-rc` (a
 * per-user `~/.ssh/rc` runs before the session and can outlive the certificate).
 */
export const SSH_USER_EXTENSIONS = [
  'permit-agent-forwarding',
  'permit-port-forwarding',
  'permit-pty',
] as const;

/** A critical option with a value (`force-command`, `source-address`). */
export interface SshCriticalOption {
  readonly name: 'force-command' | 'source-address';
  readonly value: string;
}

/** What a CA needs to sign: its public key blob and a signature over the certificate body. */
export interface SshCertificateAuthority {
  /** Wire blob of the CA public key (the certificate's `signature key`). */
  readonly publicKeyBlob: Buffer;
  /** The SSH signature blob (`string algorithm, string signature`) over `data`. */
  signatureOf(data: Buffer): Buffer;
}

export interface SshCertificateFields {
  readonly publicKey: { readonly type: SshKeyType; readonly blob: Buffer };
  /** 1 .. 2^64-1 (0 is "no serial" and cannot be revoked by serial in a KRL). */
  readonly serial: bigint;
  readonly keyId: string;
  /** Never empty: an empty list would make the certificate valid for every account. */
  readonly principals: readonly string[];
  readonly validAfter: Date;
  readonly validBefore: Date;
  readonly criticalOptions?: readonly SshCriticalOption[];
  readonly extensions?: readonly string[];
  /** 32 random bytes by default. */
  readonly nonce?: Buffer;
}

export interface IssuedSshCertificate {
  /** e.g. `ssh-ed25519-cert-v01@openssh.com`. */
  readonly certType: string;
  readonly blob: Buffer;
  readonly serial: bigint;
  readonly keyId: string;
  readonly principals: readonly string[];
  readonly validAfter: Date;
  readonly validBefore: Date;
}

const NONCE_BYTES = 32;
const POOL_SIZE = NONCE_BYTES * 256;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

function nonce(): Buffer {
  if (poolOffset === POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const value = Buffer.from(pool.subarray(poolOffset, poolOffset + NONCE_BYTES));
  pool.fill(0, poolOffset, poolOffset + NONCE_BYTES);
  poolOffset += NONCE_BYTES;
  return value;
}

/** Principal names: 1-255 characters, no whitespace, comma or control character. */
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const PRINCIPAL_PATTERN = /^[^\s,\x00-\x1f\x7f]{1,255}$/;
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const KEY_ID_PATTERN = /^[^\x00-\x1f\x7f]{1,1024}$/;
const UINT64_MAX = (1n << 64n) - 1n;

function refuse(message: string): never {
  throw new PkiError('ssh_certificate_invalid', message);
}

function seconds(date: Date): bigint {
  const ms = date.getTime();
  if (!Number.isFinite(ms) || ms < 0) refuse('validity dates must be after 1970');
  return BigInt(Math.floor(ms / 1000));
}

function check(fields: SshCertificateFields): void {
  if (fields.serial < 1n || fields.serial > UINT64_MAX) refuse('serial must be 1 .. 2^64-1');
  if (!KEY_ID_PATTERN.test(fields.keyId)) refuse('key id must be 1-1024 printable characters');
  if (fields.principals.length === 0) refuse('a certificate needs at least one principal');
  for (const p of fields.principals) {
    if (!PRINCIPAL_PATTERN.test(p)) refuse(`principal ${JSON.stringify(p)} is not allowed`);
  }
  if (fields.validBefore.getTime() <= fields.validAfter.getTime()) {
    refuse('validBefore must be after validAfter');
  }
}

/** Name/data pairs sorted by name, as PROTOCOL.certkeys requires. */
function optionsSection(pairs: readonly { name: string; data: Buffer }[]): SshWriter {
  const writer = new SshWriter(64);
  const sorted = [...pairs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].name === sorted[i - 1].name) refuse(`duplicate option ${sorted[i].name}`);
  }
  for (const { name, data } of sorted) writer.string(name).string(data);
  return writer;
}

/**
 * Builds and signs an OpenSSH user certificate (PROTOCOL.certkeys): `<key type>-cert-v01`
 * for Ed25519, ECDSA P-256/384/521 and RSA subject keys. The signature is the CA's (Ed25519
 * for the service's CA, whatever the subject key type).
 */
export function buildSshCertificate(
  fields: SshCertificateFields,
  ca: SshCertificateAuthority,
): IssuedSshCertificate {
  check(fields);
  const certType = `${fields.publicKey.type}-cert-v01@openssh.com`;
  const principals = new SshWriter(64);
  for (const p of fields.principals) principals.string(p);
  const critical = optionsSection(
    (fields.criticalOptions ?? []).map((o) => ({
      name: o.name,
      data: new SshWriter(o.value.length + 4).string(o.value).toBuffer(),
    })),
  );
  const extensions = optionsSection(
    (fields.extensions ?? SSH_USER_EXTENSIONS).map((name) => ({ name, data: Buffer.alloc(0) })),
  );
  const body = new SshWriter(512 + fields.publicKey.blob.length)
    .string(certType)
    .string(fields.nonce ?? nonce())
    .raw(keyFieldsOf(fields.publicKey.blob))
    .uint64(fields.serial)
    .uint32(SSH_CERT_TYPE_USER)
    .string(fields.keyId)
    .nested(principals)
    .uint64(seconds(fields.validAfter))
    .uint64(seconds(fields.validBefore))
    .nested(critical)
    .nested(extensions)
    .string(Buffer.alloc(0))
    .string(ca.publicKeyBlob);
  const blob = body.string(ca.signatureOf(body.view())).toBuffer();
  return {
    certType,
    blob,
    serial: fields.serial,
    keyId: fields.keyId,
    principals: [...fields.principals],
    validAfter: new Date(Number(seconds(fields.validAfter)) * 1000),
    validBefore: new Date(Number(seconds(fields.validBefore)) * 1000),
  };
}

/** The OpenSSH text form of a certificate (`<cert type> <base64> [comment]`), as in `*-cert.pub`. */
export function formatSshCertificate(
  certificate: {
    readonly certType: string;
    readonly blob: Buffer;
  },
  comment?: string,
): string {
  return `${certificate.certType} ${certificate.blob.toString('base64')}${comment ? ` ${comment}` : ''}`;
}
