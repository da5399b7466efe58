/** TPM evidence of `POST /enroll` (body field `tpm`), decoded from base64. */
export interface TpmEvidence {
  /** EK certificate, DER. */
  ekCertificate: Buffer;
  /** Intermediates up to a registered vendor root, DER. */
  ekChain: Buffer[];
  /** The attestation key, TPM2B_PUBLIC. */
  akPublic: Buffer;
  /** TPMS_ATTEST of a quote whose qualifying data is SHA-256 of the enroll nonce. */
  quoteInfo: Buffer;
  quoteSignature: Buffer;
  /** What ActivateCredential released for the nonce's challenge (first attested enroll). */
  activatedCredential?: Buffer;
  /** The CSR key, TPM2B_PUBLIC, and the AK's certify of it. */
  keyPublic?: Buffer;
  certifyInfo?: Buffer;
  certifySignature?: Buffer;
}

/** Why verified evidence was refused (server log and tests only; the client sees one code). */
export type TpmRefusal =
  | 'ak_attributes'
  | 'ek_no_roots'
  | 'ek_malformed'
  | 'ek_untrusted'
  | 'ek_expired'
  | 'ek_not_ek'
  | 'quote_not_quote'
  | 'quote_nonce'
  | 'quote_signature'
  | 'ek_mismatch'
  | 'ak_mismatch'
  | 'activation_missing'
  | 'activation_mismatch'
  | 'activation_failed'
  | 'certify_invalid';

export type TpmVerdict =
  | {
      ok: true;
      /** EK certificate serial, lowercase hex: the `ek:` identity. */
      ekSerial: string;
      akPublic: Buffer;
      /** `activated`: a fresh credential activation; `pinned`: the AK pinned before. */
      binding: 'activated' | 'pinned';
      /** The CSR key is certified by the AK as a TPM-resident, non-duplicable key. */
      keyResident: boolean;
    }
  | { ok: false; reason: TpmRefusal };

/** Hardware keys pinned on the device (null for a new device). */
export interface PinnedTpm {
  ekCertSerial: string | null;
  akPublic: Buffer | null;
}

/** A credential-activation challenge kept with its nonce (hashes and names, hex). */
export interface StoredTpmChallenge {
  /** SHA-256 of the sealed credential. */
  credentialHash: string;
  /** Name of the AK the credential was sealed for. */
  akName: string;
  /** SHA-256 of the EK certificate it was sealed under. */
  ekFingerprint: string;
}
