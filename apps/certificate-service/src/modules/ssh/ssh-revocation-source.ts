import { Injectable } from '@nestjs/common';

/**
 * What the KRL is built from. A module that revokes SSH credentials registers one source
 * (`SshRevocationSources.register`) and calls `SshKrl.rebuild()` after every revocation has
 * committed. Every method is optional; each answers the full current set, not a delta.
 */
export interface SshRevocationSource {
  /** For logs and errors. */
  readonly name: string;
  /** Serials of revoked certificates of the service's SSH CA that have not expired at `now`. */
  revokedCertificateSerials?(now: Date): Promise<readonly bigint[]>;
  /** Key ids under the SSH CA: every certificate carrying one is revoked. */
  revokedKeyIds?(now: Date): Promise<readonly string[]>;
  /** Wire blobs of revoked plain (raw) public keys. */
  revokedRawKeys?(): Promise<readonly Buffer[]>;
}

/** Everything the KRL revokes, merged from every source. */
export interface SshRevocations {
  serials: bigint[];
  keyIds: string[];
  rawKeys: Buffer[];
}

/** The registered sources (a registry, so the KRL never imports the modules it reads). */
@Injectable()
export class SshRevocationSources {
  private readonly sources: SshRevocationSource[] = [];

  register(source: SshRevocationSource): void {
    if (!this.sources.includes(source)) this.sources.push(source);
  }

  async collect(now: Date): Promise<SshRevocations> {
    const parts = await Promise.all(
      this.sources.map(async (s) => ({
        serials: (await s.revokedCertificateSerials?.(now)) ?? [],
        keyIds: (await s.revokedKeyIds?.(now)) ?? [],
        rawKeys: (await s.revokedRawKeys?.()) ?? [],
      })),
    );
    return {
      serials: parts.flatMap((p) => p.serials),
      keyIds: parts.flatMap((p) => p.keyIds),
      rawKeys: parts.flatMap((p) => p.rawKeys),
    };
  }
}
