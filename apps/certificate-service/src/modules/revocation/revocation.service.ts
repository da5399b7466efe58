import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../../app/access/actor';
import type { CertificateEntity } from '../certificates/certificate.entity';
import { CertificatesRepository } from '../certificates/certificates.repository';
import { LicenseSlotsService } from '../license/license-slots.service';
import { normalizeSerialHex, type RevocationReason } from '@platform/pki';
import { parseSshCertificateRef } from '../ssh/ssh-certificate-profile';
import { SshCertificateRevoker, type SshDeviceCascade } from '../ssh/ssh-certificate-revoker';
import { sshCertificateRecord } from '../ssh/ssh-certificate-record';
import { CertificateRevoker, type RevocationRowOutcome } from './certificate-revoker';
import { DeviceBlockRepository } from './device-block.repository';
import { RevocationError } from './revocation.errors';

export interface DeviceRevocation {
  serial: string;
  /** False on partial failure (answer 207): no block, no slot release; repeat is safe. */
  complete: boolean;
  blocked: boolean;
  slotReleased: boolean;
  certificates: RevocationRowOutcome[];
  /** SSH certificates and raw keys of the device, revoked independently of the X.509 ones. */
  ssh: SshDeviceCascade;
}

/** Revocation of one certificate, of a device (full revoke + block) and of a user's certificates. */
@Injectable()
export class RevocationService {
  constructor(
    private readonly certificates: CertificatesRepository,
    private readonly revoker: CertificateRevoker,
    private readonly devices: DeviceBlockRepository,
    private readonly slots: LicenseSlotsService,
    private readonly audit: AuditService,
    private readonly ssh: SshCertificateRevoker,
  ) {}

  /**
   * Revoking does not free a licence slot. Already revoked: answered as it is. With an issuer
   * that cannot revoke (SCEP), the row is marked revoked and `caRevokeUnsupported` is set.
   */
  async revokeCertificate(
    actor: Actor,
    serial: string,
    reason: RevocationReason,
  ): Promise<{ certificate: CertificateEntity; caRevokeUnsupported: boolean }> {
    const sshSerial = parseSshCertificateRef(serial);
    if (sshSerial !== undefined) {
      const certificate = await this.revokeSshCertificate(actor, sshSerial, reason);
      return { certificate, caRevokeUnsupported: false };
    }
    const normalized = normalizeSerialHex(serial);
    const row = normalized ? await this.certificates.findBySerial(normalized) : null;
    if (!row) throw new RevocationError('certificate_not_found');
    if (row.status === 'revoked') return { certificate: row, caRevokeUnsupported: false };
    const [outcome] = await this.revoker.revoke([row], reason);
    if (outcome.status === 'error') throw new RevocationError('issuer_revoke_failed');
    const unsupported = outcome.caRevokeUnsupported === true;
    await this.audit.record({
      action: 'certificate.revoke',
      actor,
      target: row.serial,
      details: {
        reason,
        purpose: row.purpose,
        device_id: row.deviceId,
        ...(unsupported ? { ca_revoke_unsupported: true } : {}),
      },
    });
    const certificate = (await this.certificates.findBySerial(row.serial)) ?? row;
    return { certificate, caRevokeUnsupported: unsupported };
  }

  /** `ssh-<serial>`: an SSH certificate, into the KRL (no issuer, no CRL). */
  private async revokeSshCertificate(
    actor: Actor,
    serial: bigint,
    reason: RevocationReason,
  ): Promise<CertificateEntity> {
    const before = await this.ssh.find(serial);
    if (!before) throw new RevocationError('certificate_not_found');
    const after = await this.ssh.revokeOne(serial, reason);
    if (before.status !== 'revoked') {
      await this.audit.record({
        action: 'certificate.revoke',
        actor,
        target: `ssh-${serial}`,
        details: { reason, purpose: 'ssh', device_id: after.deviceId, key_id: after.keyId },
      });
    }
    return sshCertificateRecord(after);
  }

  /**
   * Revokes every active certificate of the device. All X.509 ones succeed: the slot is
   * decommissioned and the device blocked (permanent until unblocked); any failure: nothing
   * else changes. The SSH cascade (certificates, raw keys, KRL) runs whatever the X.509
   * outcome; its failure is reported as `ssh_keys_revoke_failed`.
   */
  async revokeDevice(actor: Actor, serial: string): Promise<DeviceRevocation> {
    const device = await this.devices.findBySerial(serial);
    if (!device) throw new RevocationError('device_not_found');
    const active = await this.certificates.activeOfDevice(device.id);
    const outcomes = await this.revoker.revoke(active, 'cessationOfOperation');
    const ssh = await this.ssh.revokeDevice(actor, device.id);
    const complete = outcomes.every((o) => o.status === 'revoked');
    let slotReleased = false;
    if (complete) {
      const at = new Date();
      slotReleased = await this.slots.inLedgerTransaction((tx) =>
        this.slots.decommissionIn(tx, device.identityKey, at),
      );
      await this.devices.setBlocked(device, true, at);
    }
    await this.audit.record({
      action: 'device.revoke',
      actor,
      target: device.serial,
      details: {
        complete,
        blocked: complete,
        slot_released: slotReleased,
        revoked: outcomes.filter((o) => o.status === 'revoked').map((o) => o.serial),
        failed: outcomes.filter((o) => o.status === 'error').map((o) => o.serial),
        ssh_certificates_revoked: ssh.certificates,
        ssh_keys_revoked: ssh.keysRevoked,
        ssh_failed: ssh.failed,
      },
    });
    return {
      serial: device.serial,
      complete,
      blocked: complete,
      slotReleased,
      certificates: outcomes,
      ssh,
    };
  }

  /** Lifts a block; repeatable; pending requests stay as they are. */
  async unblockDevice(actor: Actor, serial: string): Promise<{ serial: string; blocked: false }> {
    const device = await this.devices.findBySerial(serial);
    if (!device) throw new RevocationError('device_not_found');
    await this.devices.setBlocked(device, false, new Date());
    await this.audit.record({
      action: 'device.unblock',
      actor,
      target: device.serial,
      details: { was_blocked: device.blocked },
    });
    return { serial: device.serial, blocked: false };
  }

  async revokeUserCertificates(actor: Actor, identity: string): Promise<RevocationRowOutcome[]> {
    const active = await this.certificates.activeOfUser(identity);
    const outcomes = await this.revoker.revoke(active, 'affiliationChanged');
    await this.audit.record({
      action: 'user.certificates_revoke',
      actor,
      target: identity,
      details: {
        revoked: outcomes.filter((o) => o.status === 'revoked').map((o) => o.serial),
        failed: outcomes.filter((o) => o.status === 'error').map((o) => o.serial),
      },
    });
    return outcomes;
  }
}
