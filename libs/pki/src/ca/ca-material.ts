/** One CA certificate with its private key sealed by the key-encryption key. */
export interface CaCertificateMaterial {
  readonly certificateDer: Buffer;
  readonly certificatePem: string;
  /** PKCS#8 sealed with AES-256-GCM (`v1:<iv>:<tag>:<ciphertext>`); never the clear key. */
  readonly encryptedPrivateKey: string;
}

/** The built-in CA as persisted: root and issuing CA. */
export interface CaMaterial {
  readonly formatVersion: 1;
  readonly root: CaCertificateMaterial;
  readonly issuing: CaCertificateMaterial;
  readonly createdAt: Date;
}

/**
 * Persistence port, implemented by the service with the database. `saveIfAbsent` must be
 * atomic (e.g. INSERT ... ON CONFLICT DO NOTHING, then SELECT) and return the material that
 * is stored afterwards, so two replicas starting together end up with one CA.
 */
export interface CaMaterialStore {
  load(): Promise<CaMaterial | undefined>;
  saveIfAbsent(material: CaMaterial): Promise<CaMaterial>;
}

/** AAD labels binding each sealed key to its role. */
export const CA_KEY_LABELS = { root: 'pki/ca/root/v1', issuing: 'pki/ca/issuing/v1' } as const;
