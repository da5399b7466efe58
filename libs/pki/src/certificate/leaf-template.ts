import { KeyAlgorithm } from '../csr/csr.types';
import { integer } from '../der/der-primitives';
import { explicit } from '../der/der-tlv';
import { IssuingAuthority } from './certificate-signer';
import {
  authorityKeyIdentifierExtension,
  basicConstraintsExtension,
  extendedKeyUsageExtension,
  keyUsageExtension,
  revocationPointerExtensions,
  type RevocationPointers,
} from './extensions';
import { PURPOSE_PROFILES, X509Purpose, X509_PURPOSES } from './purposes';

/** Bytes that are identical for every leaf of one issuing CA. */
export interface CaTemplate {
  /** `[0] EXPLICIT INTEGER 2` (v3). */
  readonly version: Buffer;
  /** signature AlgorithmIdentifier followed by the issuer Name. */
  readonly algorithmAndIssuer: Buffer;
}

/** Concatenated constant extensions per purpose and key algorithm. */
export type ExtensionTemplates = Readonly<
  Record<X509Purpose, Readonly<Record<KeyAlgorithm, Buffer>>>
>;

export function buildCaTemplate(authority: IssuingAuthority): CaTemplate {
  return {
    version: explicit(0, integer(2)),
    algorithmAndIssuer: Buffer.concat([authority.signer.algorithmIdentifierDer, authority.nameDer]),
  };
}

/**
 * BasicConstraints, KeyUsage, EKU, AKI (and CDP / AIA when configured), encoded once per
 * purpose × key type: bulk signing never re-encodes them.
 */
export function buildExtensionTemplates(
  authority: IssuingAuthority,
  pointers: RevocationPointers,
): ExtensionTemplates {
  const shared = [
    basicConstraintsExtension(false),
    authorityKeyIdentifierExtension(authority.keyIdentifier),
    ...revocationPointerExtensions(pointers),
  ];
  const templates = {} as Record<X509Purpose, Record<KeyAlgorithm, Buffer>>;
  for (const purpose of X509_PURPOSES) {
    const profile = PURPOSE_PROFILES[purpose];
    const forKey = (keyAlgorithm: KeyAlgorithm): Buffer =>
      Buffer.concat([
        keyUsageExtension(profile.keyUsage[keyAlgorithm]),
        extendedKeyUsageExtension(profile.extendedKeyUsages),
        ...shared,
      ]);
    templates[purpose] = { rsa: forKey('rsa'), ec: forKey('ec') };
  }
  return templates;
}
