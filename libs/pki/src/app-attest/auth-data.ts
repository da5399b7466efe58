import { AppAttestRefusal } from './app-attest-refusal';

/**
 * Authenticator data of an App Attest attestation (WebAuthn layout):
 * rpIdHash (32) | flags (1) | signCount (4, big-endian) | aaguid (16) |
 * credentialIdLength (2, big-endian) | credentialId | credentialPublicKey (COSE, not read).
 */
export interface AuthData {
  rpIdHash: Buffer;
  flags: number;
  signCount: number;
  aaguid: Buffer;
  credentialId: Buffer;
}

/** Flag bit: attested credential data included. */
const ATTESTED_DATA = 0x40;
const HEADER = 32 + 1 + 4;
const CREDENTIAL_HEADER = 16 + 2;

export function parseAuthData(data: Buffer): AuthData {
  if (data.length < HEADER + CREDENTIAL_HEADER) {
    throw new AppAttestRefusal('authenticator data too short');
  }
  const flags = data[32];
  if ((flags & ATTESTED_DATA) === 0) {
    throw new AppAttestRefusal('authenticator data without attested credential data');
  }
  const idLength = data.readUInt16BE(HEADER + 16);
  const idStart = HEADER + CREDENTIAL_HEADER;
  if (idStart + idLength > data.length) {
    throw new AppAttestRefusal('credential id beyond the authenticator data');
  }
  return {
    rpIdHash: data.subarray(0, 32),
    flags,
    signCount: data.readUInt32BE(33),
    aaguid: data.subarray(HEADER, HEADER + 16),
    credentialId: data.subarray(idStart, idStart + idLength),
  };
}
