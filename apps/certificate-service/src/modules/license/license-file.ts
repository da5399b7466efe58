import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { PURPOSES, type Purpose } from '../../app/domain/purposes';

/** `format` of a `.lic` file (the JSON text whose base64 is `license_b64`). */
export const LICENSE_FORMAT = 'certsvc-license/v1';

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The signed content of a license (the JSON inside `payload`). */
export interface LicenseTerms {
  licenseId: string;
  issuedTo: string;
  /** Raw Ed25519 public key of the deployment the license is bound to, base64. */
  instancePublicKey: string;
  maxDevices: number;
  issuedAt: Date;
  /** Null: the license never expires. */
  expiresAt: Date | null;
  /** Seats per purpose; null when the license carries no seats. */
  purposeSeats: Partial<Record<Purpose, number>> | null;
}

export type LicenseCheck =
  | { ok: true; terms: LicenseTerms }
  | { ok: false; reason: 'malformed' | 'signature' | 'instance' | 'expired' | 'no_vendor_key' };

/** A raw 32-byte Ed25519 public key (base64) as a key object; undefined when not one. */
export function ed25519PublicKey(rawB64: string): KeyObject | undefined {
  const raw = Buffer.from(rawB64, 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== rawB64) return undefined;
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, raw]),
    format: 'der',
    type: 'spki',
  });
}

/**
 * Checks a `license_b64` upload: a `.lic` file `{"format","payload","signature"}` whose
 * `signature` is the vendor's Ed25519 signature over the bytes of `payload` (base64 of the
 * terms' JSON), bound to this deployment's instance key, and not expired at `now`.
 */
export function checkLicense(
  licenseB64: string,
  vendorKey: KeyObject | undefined,
  instancePublicKey: string,
  now: Date,
  options: { allowExpired?: boolean } = {},
): LicenseCheck {
  if (!vendorKey) return { ok: false, reason: 'no_vendor_key' };
  const file = parseJson(Buffer.from(licenseB64, 'base64').toString('utf8'));
  if (
    !isRecord(file) ||
    file.format !== LICENSE_FORMAT ||
    typeof file.payload !== 'string' ||
    typeof file.signature !== 'string'
  ) {
    return { ok: false, reason: 'malformed' };
  }
  const payload = Buffer.from(file.payload, 'base64');
  const signature = Buffer.from(file.signature, 'base64');
  if (signature.length !== 64 || !verify(null, payload, vendorKey, signature)) {
    return { ok: false, reason: 'signature' };
  }
  const terms = parseTerms(parseJson(payload.toString('utf8')));
  if (!terms) return { ok: false, reason: 'malformed' };
  if (terms.instancePublicKey !== instancePublicKey) return { ok: false, reason: 'instance' };
  if (!options.allowExpired && terms.expiresAt && terms.expiresAt <= now) {
    return { ok: false, reason: 'expired' };
  }
  return { ok: true, terms };
}

function parseTerms(v: unknown): LicenseTerms | undefined {
  if (!isRecord(v)) return undefined;
  const { license_id, issued_to, instance_public_key, max_devices, issued_at, expires_at } = v;
  if (
    typeof license_id !== 'string' ||
    typeof issued_to !== 'string' ||
    typeof instance_public_key !== 'string' ||
    !isCount(max_devices) ||
    max_devices < 1 ||
    typeof issued_at !== 'string' ||
    (expires_at !== null && typeof expires_at !== 'string')
  ) {
    return undefined;
  }
  const issuedAt = new Date(issued_at);
  const expiresAt = expires_at === null ? null : new Date(expires_at);
  if (Number.isNaN(issuedAt.getTime()) || (expiresAt && Number.isNaN(expiresAt.getTime()))) {
    return undefined;
  }
  let purposeSeats: LicenseTerms['purposeSeats'] = null;
  if (v.purpose_seats !== undefined && v.purpose_seats !== null) {
    if (!isRecord(v.purpose_seats)) return undefined;
    purposeSeats = {};
    for (const [purpose, seats] of Object.entries(v.purpose_seats)) {
      if (!(PURPOSES as readonly string[]).includes(purpose) || !isCount(seats)) return undefined;
      purposeSeats[purpose as Purpose] = seats;
    }
  }
  return {
    licenseId: license_id,
    issuedTo: issued_to,
    instancePublicKey: instance_public_key,
    maxDevices: max_devices,
    issuedAt,
    expiresAt,
    purposeSeats,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/** The bytes the deployment instance key signs for `POST /license/attest`. */
export function attestMessage(nonce: string, licenseB64: string): Buffer {
  return Buffer.from(['certsvc-license-attest/v1', nonce, licenseB64].join('\u0000'), 'utf8');
}
