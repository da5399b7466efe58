import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SshRevocationEntity } from './ssh-revocation.entity';
import { SshRevocationsRepository } from './ssh-revocations.repository';

/** A revoked SSH certificate, as `modules/ssh` reports it to the feed. */
export interface RevokedSshCertificate {
  serial: string;
  keyId: string;
  fingerprint: string | null;
  deviceId: string | null;
  owner: string | null;
  principals: readonly string[];
  reason: string | null;
  revokedAt?: Date;
}

/**
 * The revocation feed for session watchers (`GET /api/v1/keyholder/revocations`). Raw keys are
 * appended by the registry; SSH certificates by `modules/ssh` through `appendCertificates`,
 * inside the transaction that revokes them.
 */
@Injectable()
export class SshRevocationFeed {
  constructor(private readonly repository: SshRevocationsRepository) {}

  appendCertificates(em: EntityManager, certificates: readonly RevokedSshCertificate[]) {
    return this.repository.append(
      em,
      certificates.map((c) => ({
        kind: 'certificate' as const,
        sshKeyId: null,
        fingerprint: c.fingerprint,
        certificateSerial: c.serial,
        certificateKeyId: c.keyId,
        deviceId: c.deviceId,
        owner: c.owner,
        principals: [...c.principals],
        reason: c.reason,
        revokedAt: c.revokedAt,
      })),
    );
  }

  after(cursor: string, limit: number): Promise<SshRevocationEntity[]> {
    return this.repository.after(cursor, limit);
  }

  lastId(): Promise<string> {
    return this.repository.lastId();
  }
}
