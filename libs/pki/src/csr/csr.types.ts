export type KeyAlgorithm = 'rsa' | 'ec';
export type EcCurve = 'P-256' | 'P-384';

/** A subject alternative name the CSR asks for (the approval flow decides what is issued). */
export type RequestedSan =
  | { readonly type: 'dns'; readonly value: string }
  | { readonly type: 'email'; readonly value: string }
  | { readonly type: 'uri'; readonly value: string }
  | { readonly type: 'ip'; readonly value: string }
  | { readonly type: 'upn'; readonly value: string };

interface ParsedCsrBase {
  /** The CSR as DER, e.g. to store it or hand it to an external CA. */
  readonly der: Buffer;
  readonly subjectCommonName?: string;
  /** The subject Name exactly as encoded in the CSR. */
  readonly subjectDer: Buffer;
  /** SubjectPublicKeyInfo bytes from the CSR, copied verbatim into issued certificates. */
  readonly publicKeySpkiDer: Buffer;
  readonly requestedSans: readonly RequestedSan[];
  /** SHA-256 of the SPKI DER, lowercase hex (licence identity `pk:` and key pinning). */
  readonly publicKeyHash: string;
  /** Signature algorithm the CSR was signed with, e.g. `ecdsa-with-SHA256`. */
  readonly signatureAlgorithm: string;
}

export type ParsedCsr =
  | (ParsedCsrBase & { readonly keyAlgorithm: 'rsa'; readonly keyBits: number })
  | (ParsedCsrBase & { readonly keyAlgorithm: 'ec'; readonly curve: EcCurve });
