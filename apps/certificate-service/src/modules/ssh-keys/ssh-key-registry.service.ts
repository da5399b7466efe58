import { Injectable } from '@nestjs/common';
import { SshKeysRepository, type RevokedSshKey } from './ssh-keys.repository';

/** Read side of the raw-key registry for other modules (the KRL of `modules/ssh`). */
@Injectable()
export class SshKeyRegistry {
  constructor(private readonly keys: SshKeysRepository) {}

  /** Every revoked raw key, oldest revocation first (blobs for the KRL's explicit-key section). */
  revokedKeys(): Promise<RevokedSshKey[]> {
    return this.keys.revoked();
  }
}
