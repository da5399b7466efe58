import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CertificateEntity } from './certificate.entity';
import type { KeyProtectionLevel } from './certificate-status';
import { WebhookOutbox } from '../webhooks/webhook-outbox';

export interface RevokedEntryRow {
  serial: string;
  revokedAt: Date;
  reason: string | null;
}

@Injectable()
export class CertificatesRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: WebhookOutbox,
  ) {}

  private get repo() {
    return this.dataSource.getRepository(CertificateEntity);
  }

  findBySerial(serial: string): Promise<CertificateEntity | null> {
    return this.repo.findOneBy({ serial });
  }

  /** Newest certificate issued for a request. */
  latestForRequest(requestId: string): Promise<CertificateEntity | null> {
    return this.repo.findOne({ where: { requestId }, order: { createdAt: 'DESC' } });
  }

  /** Active (not revoked) certificates of a device, including superseded unexpired ones. */
  activeOfDevice(deviceId: string): Promise<CertificateEntity[]> {
    return this.repo.find({
      where: { deviceId, status: 'active' },
      order: { createdAt: 'ASC' },
    });
  }

  activeOfUser(userIdentity: string): Promise<CertificateEntity[]> {
    return this.repo.find({
      where: { userIdentity, status: 'active' },
      order: { createdAt: 'ASC' },
    });
  }

  /**
   * Marks active certificates revoked; returns the serials that changed. Their
   * `certificate.revoked` webhook events are written in the same transaction.
   */
  async markRevoked(serials: readonly string[], reason: string, at: Date): Promise<string[]> {
    if (serials.length === 0) return [];
    return this.dataSource.transaction(async (em) => {
      const rows = (await em.query(
        `UPDATE certificates SET status = 'revoked', revoked_at = $2, revocation_reason = $3
         WHERE serial = ANY($1::varchar[]) AND status = 'active'
         RETURNING serial, device_id, purpose, user_identity`,
        [serials, at, reason],
      )) as [
        { serial: string; device_id: string; purpose: string; user_identity: string | null }[],
        number,
      ];
      await this.outbox.enqueue(
        em,
        rows[0].map((r) => ({
          type: 'certificate.revoked' as const,
          data: {
            serial: r.serial,
            device_id: r.device_id,
            purpose: r.purpose,
            user_identity: r.user_identity,
            reason,
            revoked_at: at.toISOString(),
          },
        })),
      );
      return rows[0].map((r) => r.serial);
    });
  }

  /** Revoked, not yet expired certificates of an issuer kind, for its CRL. */
  async revokedEntries(issuerKind: string, now: Date): Promise<RevokedEntryRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT serial, revoked_at, revocation_reason FROM certificates
       WHERE status = 'revoked' AND issuer_kind = $1 AND not_after > $2
       ORDER BY revoked_at, serial`,
      [issuerKind, now],
    )) as { serial: string; revoked_at: Date; revocation_reason: string | null }[];
    return rows.map((r) => ({
      serial: r.serial,
      revokedAt: r.revoked_at,
      reason: r.revocation_reason,
    }));
  }

  async setKeyProtection(serial: string, level: KeyProtectionLevel): Promise<boolean> {
    const result = await this.repo.update({ serial }, { keyProtection: level });
    return (result.affected ?? 0) > 0;
  }
}
