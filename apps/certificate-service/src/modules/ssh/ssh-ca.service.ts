import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ensureSshCaMaterial, SshUserCa } from '@platform/pki';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { SshCaRepository } from './ssh-ca.repository';
import { SshError } from './ssh.errors';

/**
 * The SSH user CA: an Ed25519 key generated at the first start with SSH switched on, stored in
 * `ssh_ca_material` sealed with `CERTSVC_CA_KEY_ENC_KEY` (as the X.509 CA keys), opened once.
 */
@Injectable()
export class SshCaService implements OnApplicationBootstrap {
  private readonly logger = new Logger('SshCa');
  private opened: SshUserCa | undefined;
  private opening: Promise<SshUserCa> | undefined;

  constructor(
    private readonly store: SshCaRepository,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  /** `CERTSVC_FEATURES_SSH`: without it no CA is generated and no KRL is published. */
  get enabled(): boolean {
    return this.config.features.ssh;
  }

  /** Runs after migrations (app.init). Nothing happens while SSH is switched off. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.enabled) await this.open();
  }

  /** Loads (at the first start: generates) and opens the CA once; later calls share it. */
  open(): Promise<SshUserCa> {
    this.opening ??= (async () => {
      const material = await ensureSshCaMaterial(this.store, this.config.pki.caKeyEncryptionKey);
      const ca = SshUserCa.open(material, this.config.pki.caKeyEncryptionKey);
      this.logger.log(
        { fingerprint: ca.fingerprint, created_at: material.createdAt.toISOString() },
        'SSH user CA loaded',
      );
      this.opened = ca;
      return ca;
    })();
    return this.opening;
  }

  ca(): SshUserCa {
    if (!this.opened) throw new SshError('ssh_ca_unavailable');
    return this.opened;
  }
}
