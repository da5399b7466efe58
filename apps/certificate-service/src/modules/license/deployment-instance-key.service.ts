import { Inject, Injectable } from '@nestjs/common';
import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { openPrivateKey } from '@platform/pki';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import type { LicenseStateEntity } from './license-state.entity';

/** AAD label binding the sealed deployment instance key to its role. */
export const INSTANCE_KEY_LABEL = 'license/instance/v1';

/**
 * The deployment instance private key (Ed25519; created by `DeploymentInstanceKeyBootstrap`),
 * unsealed with the CA key-encryption key once and kept in memory. It signs ledger checkpoints
 * and license attestations.
 */
@Injectable()
export class DeploymentInstanceKeyService {
  private instanceKey: { publicKey: string; privateKey: KeyObject } | undefined;

  constructor(@Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig) {}

  /** The instance key's Ed25519 signature over `message`, base64. */
  sign(state: LicenseStateEntity, message: Buffer): string {
    return sign(null, message, this.privateKey(state)).toString('base64');
  }

  private privateKey(state: LicenseStateEntity): KeyObject {
    if (this.instanceKey?.publicKey !== state.instancePublicKey) {
      const der = openPrivateKey(
        state.instanceEncryptedPrivateKey,
        this.config.pki.caKeyEncryptionKey,
        INSTANCE_KEY_LABEL,
      );
      try {
        this.instanceKey = {
          publicKey: state.instancePublicKey,
          privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }),
        };
      } finally {
        der.fill(0);
      }
    }
    return this.instanceKey.privateKey;
  }
}
