import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { SshKeyEvents } from '../ssh-keys/ssh-key-events';
import { SshKeyRegistry } from '../ssh-keys/ssh-key-registry.service';
import { SshCaService } from './ssh-ca.service';
import { SshCertificatesRepository } from './ssh-certificates.repository';
import { SshKrl } from './ssh-krl.service';
import { SshRevocationSources } from './ssh-revocation-source';

/**
 * Registers what the KRL revokes: revoked, unexpired SSH certificates by serial (this module)
 * and revoked raw keys by blob (the key registry; they stay in the KRL for good). A raw key
 * revoked in the registry (admin revoke, device cascade) publishes a new KRL at once, and every
 * start publishes one (revocations made while SSH was switched off, expired serials dropped).
 */
@Injectable()
export class SshRevocationSourcesBootstrap implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly sources: SshRevocationSources,
    private readonly certificates: SshCertificatesRepository,
    private readonly registry: SshKeyRegistry,
    private readonly events: SshKeyEvents,
    private readonly krl: SshKrl,
    private readonly ca: SshCaService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      name: 'ssh-certificates',
      revokedCertificateSerials: (now) => this.certificates.revokedSerials(now),
    });
    this.sources.register({
      name: 'ssh-keys',
      revokedRawKeys: async () => (await this.registry.revokedKeys()).map((k) => k.publicKey),
    });
    this.events.onRevoked(async () => {
      if (this.ca.enabled) await this.krl.rebuild();
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.ca.enabled) return;
    await this.ca.open();
    await this.krl.rebuild();
  }
}
