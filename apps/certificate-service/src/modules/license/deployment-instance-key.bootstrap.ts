import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { generateKeyPairSync } from 'node:crypto';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { sealPrivateKey } from '@platform/pki';
import { LicenseRepository } from './license.repository';
import { INSTANCE_KEY_LABEL } from './deployment-instance-key.service';
import { LicenseLedgerService } from './license-ledger.service';

/**
 * Generates the deployment instance key (Ed25519) at first start: the public half is the
 * `deployment_instance_key` a signed license binds to; the private half is sealed with the
 * CA key-encryption key (it signs ledger checkpoints and license attestations). Then checks
 * the usage ledger (`tamper` on failure). Replicas starting
 * together agree through INSERT ... ON CONFLICT DO NOTHING.
 */
@Injectable()
export class DeploymentInstanceKeyBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly licenses: LicenseRepository,
    private readonly ledger: LicenseLedgerService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.createInstanceKey();
    // The ledger integrity check at start (specification, Licensing rules).
    await this.ledger.checkAtStart();
  }

  private async createInstanceKey(): Promise<void> {
    if (await this.licenses.state()) return;
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
    try {
      await this.licenses.createStateIfAbsent(
        raw.toString('base64'),
        sealPrivateKey(pkcs8, this.config.pki.caKeyEncryptionKey, INSTANCE_KEY_LABEL),
      );
    } finally {
      pkcs8.fill(0);
    }
  }
}
