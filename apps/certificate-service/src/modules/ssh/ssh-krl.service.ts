import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { encodeKrl } from '@platform/pki';
import { SshCaService } from './ssh-ca.service';
import { SshKrlRepository, type StoredKrl } from './ssh-krl.repository';
import { SshRevocationSources } from './ssh-revocation-source';

/** The KRL as served: bytes, version and strong entity tag. */
export interface PublishedKrl {
  readonly version: bigint;
  readonly generatedAt: Date;
  readonly bytes: Buffer;
  /** `"<sha256 of the bytes>"`, quoted: a strong ETag. */
  readonly etag: string;
}

function published(stored: StoredKrl): PublishedKrl {
  return {
    version: stored.version,
    generatedAt: stored.generatedAt,
    bytes: stored.krl,
    etag: `"${stored.sha256}"`,
  };
}

/**
 * The OpenSSH KRL of the service (certificates of the SSH CA by serial and key id, revoked raw
 * keys by blob), stored in `ssh_krl_state` with a version that rises on every rebuild.
 * `rebuild()` after every revocation (it reads every registered `SshRevocationSource`);
 * `current()` serves cached bytes and only re-reads the row when another replica published a
 * newer version (one primary-key lookup per call).
 */
@Injectable()
export class SshKrl {
  private cached: PublishedKrl | undefined;

  constructor(
    private readonly krls: SshKrlRepository,
    private readonly sources: SshRevocationSources,
    private readonly ca: SshCaService,
  ) {}

  async current(): Promise<PublishedKrl> {
    const version = await this.krls.version();
    if (version === null) return this.rebuild();
    if (this.cached?.version === version) return this.cached;
    const stored = await this.krls.latest();
    if (!stored) return this.rebuild();
    return this.remember(published(stored));
  }

  /** Builds and publishes a new KRL from every source now. */
  async rebuild(): Promise<PublishedKrl> {
    const ca = this.ca.ca();
    const stored = await this.krls.publish(async (version) => {
      const generatedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
      const revoked = await this.sources.collect(generatedAt);
      const krl = encodeKrl({
        version,
        generatedAt,
        comment: `certsvc SSH KRL v${version}`,
        caPublicKeyBlob: ca.publicKeyBlob,
        revokedSerials: revoked.serials,
        revokedKeyIds: revoked.keyIds,
        revokedKeyBlobs: revoked.rawKeys,
      });
      return { generatedAt, krl, sha256: createHash('sha256').update(krl).digest('hex') };
    });
    return this.remember(published(stored));
  }

  /** Another name for `rebuild()`, for callers that only changed revocations. */
  invalidate(): Promise<PublishedKrl> {
    return this.rebuild();
  }

  private remember(krl: PublishedKrl): PublishedKrl {
    if (!this.cached || krl.version >= this.cached.version) this.cached = krl;
    return krl;
  }
}
