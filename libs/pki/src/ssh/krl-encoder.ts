import { PkiError } from '../pki.errors';
import { SshWriter } from './ssh-wire';

/** "SSHKRL\n\0" and the only format version (PROTOCOL.krl). */
const KRL_MAGIC = Buffer.from('SSHKRL\n\0', 'latin1');
const KRL_FORMAT_VERSION = 1;

const SECTION_CERTIFICATES = 1;
const SECTION_EXPLICIT_KEY = 2;
const SECTION_FINGERPRINT_SHA256 = 5;
const CERT_SERIAL_LIST = 0x20;
const CERT_SERIAL_RANGE = 0x21;
const CERT_SERIAL_BITMAP = 0x22;
const CERT_KEY_ID = 0x23;

/** A contiguous run at least this long becomes a range subsection (21 bytes, any length). */
const RANGE_MIN_RUN = 160;
/** Serials at most this far apart share a bitmap (a gap of 64 bits costs one list entry). */
const BITMAP_MAX_GAP = 64n;
/** OpenSSH refuses an mpint over 2 048 bytes (SSHBUF_MAX_BIGNUM): a bitmap spans less. */
const BITMAP_MAX_BITS = 16_000n;
/** Overhead of one bitmap subsection: type, length, offset, mpint length and sign octet. */
const BITMAP_OVERHEAD_BYTES = 18;

const UINT64_MAX = (1n << 64n) - 1n;

export interface KrlInput {
  /** Rises with every KRL the service publishes (`krl_version`). */
  readonly version: bigint;
  readonly generatedAt: Date;
  readonly comment?: string;
  /** Wire blob of the CA whose certificates the serials and key ids name. */
  readonly caPublicKeyBlob: Buffer;
  /** Revoked certificate serials (1 .. 2^64-1), any order, duplicates allowed. */
  readonly revokedSerials?: readonly bigint[];
  /** Revoked certificate key ids (every certificate of the CA with that id). */
  readonly revokedKeyIds?: readonly string[];
  /** Plain public keys revoked by their wire blob (`KRL_SECTION_EXPLICIT_KEY`). */
  readonly revokedKeyBlobs?: readonly Buffer[];
  /** Plain public keys revoked by the SHA-256 of their blob (`KRL_SECTION_FINGERPRINT_SHA256`). */
  readonly revokedKeySha256s?: readonly Buffer[];
}

function compareBigInt(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedUniqueSerials(serials: readonly bigint[]): bigint[] {
  const sorted = [...serials].sort(compareBigInt);
  const unique: bigint[] = [];
  for (const serial of sorted) {
    if (serial < 1n || serial > UINT64_MAX) {
      throw new PkiError('ssh_certificate_invalid', `KRL serial ${serial} is outside 1 .. 2^64-1`);
    }
    if (unique.length === 0 || unique[unique.length - 1] !== serial) unique.push(serial);
  }
  return unique;
}

function sortedUniqueBuffers(buffers: readonly Buffer[]): Buffer[] {
  const sorted = [...buffers].sort(Buffer.compare);
  return sorted.filter((b, i) => i === 0 || !b.equals(sorted[i - 1]));
}

function bitmapSubsection(out: SshWriter, serials: readonly bigint[]): void {
  const offset = serials[0];
  const width = Number(serials[serials.length - 1] - offset) + 1;
  const bytes = Buffer.alloc(Math.ceil(width / 8));
  for (const serial of serials) {
    const bit = Number(serial - offset);
    bytes[bytes.length - 1 - (bit >> 3)] |= 1 << (bit & 7);
  }
  const data = new SshWriter(bytes.length + 16).uint64(offset).mpint(bytes);
  out.byte(CERT_SERIAL_BITMAP).nested(data);
}

/**
 * The certificate subsections for sorted, unique serials: long contiguous runs as ranges,
 * dense clusters as bitmaps, the scattered rest in one serial list.
 */
function serialSubsections(out: SshWriter, serials: readonly bigint[]): void {
  const loose: bigint[] = [];
  for (let i = 0; i < serials.length;) {
    let j = i;
    while (j + 1 < serials.length && serials[j + 1] === serials[j] + 1n) j++;
    if (j - i + 1 >= RANGE_MIN_RUN) {
      const range = new SshWriter(16).uint64(serials[i]).uint64(serials[j]);
      out.byte(CERT_SERIAL_RANGE).nested(range);
    } else {
      for (let k = i; k <= j; k++) loose.push(serials[k]);
    }
    i = j + 1;
  }
  const list = new SshWriter(Math.max(16, loose.length * 4));
  for (let i = 0; i < loose.length;) {
    let j = i;
    while (
      j + 1 < loose.length &&
      loose[j + 1] - loose[j] <= BITMAP_MAX_GAP &&
      loose[j + 1] - loose[i] < BITMAP_MAX_BITS
    ) {
      j++;
    }
    const count = j - i + 1;
    const widthBytes = Math.ceil((Number(loose[j] - loose[i]) + 1) / 8);
    if (count > 1 && widthBytes + BITMAP_OVERHEAD_BYTES < count * 8) {
      bitmapSubsection(out, loose.slice(i, j + 1));
    } else {
      for (let k = i; k <= j; k++) list.uint64(loose[k]);
    }
    i = j + 1;
  }
  if (list.size > 0) out.byte(CERT_SERIAL_LIST).nested(list);
}

/**
 * Encodes an OpenSSH key revocation list (PROTOCOL.krl, format 1) as `ssh-keygen -k` writes
 * it and `sshd`'s `RevokedKeys` / `ssh-keygen -Q` read it: one certificate section for the
 * CA (serials as ranges, bitmaps and a list; key ids), then explicitly revoked plain keys by
 * blob and by SHA-256. Unsigned: OpenSSH 9.4 and later refuse signed KRLs.
 */
export function encodeKrl(input: KrlInput): Buffer {
  const serials = sortedUniqueSerials(input.revokedSerials ?? []);
  const keyIds = [...new Set(input.revokedKeyIds ?? [])].sort();
  const blobs = sortedUniqueBuffers(input.revokedKeyBlobs ?? []);
  const hashes = sortedUniqueBuffers(input.revokedKeySha256s ?? []);
  if (hashes.some((h) => h.length !== 32)) {
    throw new PkiError('ssh_key_invalid', 'a SHA-256 key hash has 32 bytes');
  }
  if (keyIds.some((id) => id.length === 0)) {
    throw new PkiError('ssh_certificate_invalid', 'a revoked key id cannot be empty');
  }
  const out = new SshWriter(64 + serials.length * 2 + blobs.length * 64 + hashes.length * 36);
  out
    .raw(KRL_MAGIC)
    .uint32(KRL_FORMAT_VERSION)
    .uint64(input.version)
    .uint64(BigInt(Math.floor(input.generatedAt.getTime() / 1000)))
    .uint64(0n)
    .string(Buffer.alloc(0))
    .string(input.comment ?? '');
  if (serials.length > 0 || keyIds.length > 0) {
    const certs = new SshWriter(32 + serials.length * 2)
      .string(input.caPublicKeyBlob)
      .string(Buffer.alloc(0));
    serialSubsections(certs, serials);
    if (keyIds.length > 0) {
      const ids = new SshWriter(keyIds.length * 48);
      for (const id of keyIds) ids.string(id);
      certs.byte(CERT_KEY_ID).nested(ids);
    }
    out.byte(SECTION_CERTIFICATES).nested(certs);
  }
  if (blobs.length > 0) {
    const section = new SshWriter(blobs.length * 64);
    for (const blob of blobs) section.string(blob);
    out.byte(SECTION_EXPLICIT_KEY).nested(section);
  }
  if (hashes.length > 0) {
    const section = new SshWriter(hashes.length * 36);
    for (const hash of hashes) section.string(hash);
    out.byte(SECTION_FINGERPRINT_SHA256).nested(section);
  }
  return out.toBuffer();
}
