import { Injectable, Logger } from '@nestjs/common';
import { loggableError } from '@platform/logging';
import type { Actor } from '../../app/access/actor';
import { SshKeysService } from '../ssh-keys/ssh-keys.service';
import { SshRevocationFeed } from '../ssh-keys/ssh-revocation-feed.service';
import { SshCaService } from './ssh-ca.service';
import type { SshCertificateEntity } from './ssh-certificate.entity';
import { sshCertificateRef } from './ssh-certificate-profile';
import { SshCertificatesRepository } from './ssh-certificates.repository';
import { SshKrl } from './ssh-krl.service';
import { SshError } from './ssh.errors';

function deviceOrSerial(deviceId: string, serial: bigint): Record<string, unknown> {
  return { device_id: deviceId, ssh_serial: serial.toString() };
}

/** The SSH part of a full device revoke. */
export interface SshDeviceCascade {
  /** False when any step failed (answered as `ssh_keys_revoke_failed`); a repeat is safe. */
  ok: boolean;
  /** `ssh-<serial>` of the certificates revoked by this call. */
  certificates: string[];
  keysRevoked: number;
  keysRejected: number;
  /** Version of the KRL published by this call; null when it could not be published. */
  krlVersion: string | null;
  /** Which step failed: `certificates`, `keys` or `krl`. */
  failed: ('certificates' | 'keys' | 'krl')[];
}

/**
 * Revokes SSH certificates: one UPDATE and the feed entries for session watchers in one
 * transaction, then a new KRL. The device cascade also revokes the device's raw keys
 * (`SshKeysService.revokeAllOfDevice`); each step runs even when another failed.
 */
@Injectable()
export class SshCertificateRevoker {
  private readonly logger = new Logger('SshCertificateRevoker');
  constructor(
    private readonly certificates: SshCertificatesRepository,
    private readonly feed: SshRevocationFeed,
    private readonly keys: SshKeysService,
    private readonly krl: SshKrl,
    private readonly ca: SshCaService,
  ) {}

  find(serial: bigint): Promise<SshCertificateEntity | null> {
    return this.certificates.findBySerial(serial);
  }

  /** Revokes one certificate (already revoked: returned as it is, no new KRL). */
  async revokeOne(serial: bigint, reason: string): Promise<SshCertificateEntity> {
    const row = await this.certificates.findBySerial(serial);
    if (!row) throw new SshError('ssh_certificate_not_found');
    if (row.status === 'revoked') return row;
    await this.revokeRows([serial], reason, new Date());
    // SSH switched off: no CA, no KRL; the next start with SSH on publishes one.
    if (!this.ca.enabled) return (await this.certificates.findBySerial(serial)) ?? row;
    try {
      await this.krl.rebuild();
    } catch (error) {
      this.fail('krl', deviceOrSerial(row.deviceId, serial), error);
      throw new SshError('ssh_krl_unavailable');
    }
    return (await this.certificates.findBySerial(serial)) ?? row;
  }

  /**
   * Every active SSH certificate of the device, then its raw keys, then a new KRL (also when
   * nothing changed, so a repeat after a failed publication publishes). Each step runs even
   * when an earlier one failed.
   */
  async revokeDevice(actor: Actor, deviceId: string): Promise<SshDeviceCascade> {
    const failed: SshDeviceCascade['failed'] = [];
    let certificates: string[] = [];
    try {
      const active = await this.certificates.activeOfDevice(deviceId);
      const revoked = await this.revokeRows(
        active.map((c) => BigInt(c.serial)),
        'device revoked',
        new Date(),
      );
      certificates = revoked.map((c) => sshCertificateRef(c.serial));
    } catch (error) {
      failed.push('certificates');
      this.fail('certificates', { device_id: deviceId }, error);
    }
    let keys = { revoked: 0, rejected: 0 };
    try {
      keys = await this.keys.revokeAllOfDevice(actor, deviceId);
    } catch (error) {
      failed.push('keys');
      this.fail('keys', { device_id: deviceId }, error);
    }
    let krlVersion: string | null = null;
    try {
      // SSH switched off: no CA, no KRL; the next start with SSH on publishes one.
      if (this.ca.enabled) krlVersion = (await this.krl.rebuild()).version.toString();
    } catch (error) {
      failed.push('krl');
      this.fail('krl', { device_id: deviceId }, error);
    }
    return {
      ok: failed.length === 0,
      certificates,
      keysRevoked: keys.revoked,
      keysRejected: keys.rejected,
      krlVersion,
      failed,
    };
  }

  private fail(step: string, target: Record<string, unknown>, error: unknown): void {
    this.logger.error(
      { ...target, step, error: loggableError(error).message },
      'SSH revocation step failed',
    );
  }

  private revokeRows(
    serials: readonly bigint[],
    reason: string,
    at: Date,
  ): Promise<SshCertificateEntity[]> {
    if (serials.length === 0) return Promise.resolve([]);
    return this.certificates.transaction(async (em) => {
      const revoked = await this.certificates.markRevoked(em, serials, reason, at);
      await this.feed.appendCertificates(
        em,
        revoked.map((c) => ({
          serial: c.serial,
          keyId: c.keyId,
          fingerprint: c.publicKeyFingerprint,
          deviceId: c.deviceId,
          owner: c.owner,
          principals: c.principals,
          reason,
          revokedAt: at,
        })),
      );
      return revoked;
    });
  }
}
