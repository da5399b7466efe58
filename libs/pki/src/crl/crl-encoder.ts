import { IssuingAuthority, signedStructure } from '../certificate/certificate-signer';
import { authorityKeyIdentifierExtension, extension } from '../certificate/extensions';
import { normalizeSerialHex } from '../certificate/serial-number';
import { integer, unsignedIntegerContent } from '../der/der-primitives';
import { DerTag } from '../der/der-tag';
import { x509Time } from '../der/der-time';
import { explicit, sequence, tlvOf } from '../der/der-tlv';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';
import { isRevocationReason, reasonExtensions, RevocationReason } from './revocation-reason';

export interface RevokedCertificateEntry {
  /** Serial as hex (colons and 0x are accepted). */
  readonly serial: string;
  readonly revokedAt: Date;
  readonly reason?: RevocationReason;
}

export interface CrlInput {
  /** Monotonic cRLNumber kept by the caller (0 .. 2^159). */
  readonly crlNumber: bigint | number;
  readonly thisUpdate: Date;
  readonly nextUpdate: Date;
  readonly entries: readonly RevokedCertificateEntry[];
}

const V2 = integer(1);

const CANONICAL_HEX = /^(?:[0-9a-f]{2}){1,20}$/;

function serialMagnitude(serial: string): Buffer {
  // Fast path for serials as issued (lowercase, even length); others are normalized.
  const hex = CANONICAL_HEX.test(serial) ? serial : normalizeSerialHex(serial);
  if (hex === undefined) throw new PkiError('crl_invalid', 'invalid serial in revoked entry');
  return Buffer.from(hex, 'hex');
}

/** One revoked entry in a single allocation (entries are always < 128 bytes). */
function encodeEntry(entry: RevokedCertificateEntry, time: Buffer): Buffer {
  if (entry.reason !== undefined && !isRevocationReason(entry.reason)) {
    throw new PkiError('crl_invalid', 'unknown revocation reason');
  }
  const magnitude = serialMagnitude(entry.serial);
  const content = unsignedIntegerContent(magnitude);
  const extensions = reasonExtensions(entry.reason);
  const bodyLength = 2 + content.length + time.length + (extensions?.length ?? 0);
  const out = Buffer.allocUnsafe(2 + bodyLength);
  out[0] = DerTag.SEQUENCE;
  out[1] = bodyLength;
  out[2] = DerTag.INTEGER;
  out[3] = content.length;
  content.copy(out, 4);
  time.copy(out, 4 + content.length);
  extensions?.copy(out, 4 + content.length + time.length);
  return out;
}

function encodeEntries(entries: readonly RevokedCertificateEntry[]): Buffer[] {
  const out = new Array<Buffer>(entries.length);
  let lastSecond = Number.NaN;
  let lastTime: Buffer = Buffer.alloc(0);
  for (let i = 0; i < entries.length; i++) {
    const second = Math.floor(entries[i].revokedAt.getTime() / 1000);
    if (second !== lastSecond) {
      lastTime = x509Time(entries[i].revokedAt);
      lastSecond = second;
    }
    out[i] = encodeEntry(entries[i], lastTime);
  }
  return out;
}

/** X.509 v2 CRL signed by the issuing CA, with AuthorityKeyIdentifier and cRLNumber. */
export function encodeCrl(authority: IssuingAuthority, input: CrlInput): Buffer {
  const crlNumber = BigInt(input.crlNumber);
  if (crlNumber < 0n || crlNumber >= 1n << 159n) {
    throw new PkiError('crl_invalid', 'cRLNumber out of range');
  }
  if (!(input.nextUpdate > input.thisUpdate)) {
    throw new PkiError('crl_invalid', 'nextUpdate must be after thisUpdate');
  }
  const fields = [
    V2,
    authority.signer.algorithmIdentifierDer,
    authority.nameDer,
    x509Time(input.thisUpdate),
    x509Time(input.nextUpdate),
  ];
  if (input.entries.length > 0) fields.push(tlvOf(DerTag.SEQUENCE, encodeEntries(input.entries)));
  fields.push(
    explicit(
      0,
      sequence(
        authorityKeyIdentifierExtension(authority.keyIdentifier),
        extension(Oids.cRLNumber, false, integer(crlNumber)),
      ),
    ),
  );
  return signedStructure(tlvOf(DerTag.SEQUENCE, fields), authority.signer);
}
