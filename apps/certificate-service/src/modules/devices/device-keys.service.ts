import { Injectable } from '@nestjs/common';
import type { AuditAction } from '../audit/audit-actions';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../../app/access/actor';
import { deviceView, type DeviceView } from './device-view';
import type { DeviceEntity } from './device.entity';
import { DevicesRepository, type DeviceChanges } from './devices.repository';
import { DevicesService } from './devices.service';
import { issueEnrollmentToken } from './enrollment-token';

/** Administrative changes to a device's credentials and pinned keys. */
@Injectable()
export class DeviceKeysService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly queries: DevicesService,
    private readonly audit: AuditService,
  ) {}

  /** A new enrollment token, returned once; the old one stops working at once. */
  async rotateEnrollmentToken(
    actor: Actor,
    serial: string,
  ): Promise<{ view: DeviceView; token: string }> {
    const device = await this.queries.found(serial);
    const issued = issueEnrollmentToken();
    const after = await this.devices.update(device.id, {
      enrollmentTokenHash: issued.hash,
      enrollmentTokenRotatedAt: new Date(),
    });
    await this.audit.record({ action: 'device.enrollment_token_rotate', actor, target: serial });
    return { view: deviceView(after), token: issued.token };
  }

  /** Drops the TPM binding: the EK certificate serial and the confirmed attestation key. */
  unbindTpm(actor: Actor, serial: string): Promise<DeviceView> {
    return this.release(actor, serial, 'device.tpm_unbind', (d) => ({
      changes: { tpmEkCertSerial: null, tpmAkPublic: null },
      details: { had_ek: d.tpmEkCertSerial !== null, had_ak: d.tpmAkPublic !== null },
    }));
  }

  /** Forgets the attestation key confirmed by credential activation. */
  releaseTpmPin(actor: Actor, serial: string): Promise<DeviceView> {
    return this.release(actor, serial, 'device.tpm_pin_release', (d) => ({
      changes: { tpmAkPublic: null },
      details: { had_pin: d.tpmAkPublic !== null },
    }));
  }

  /** Forgets the request key pinned at the first enrollment. */
  releaseEnrollKey(actor: Actor, serial: string): Promise<DeviceView> {
    return this.release(actor, serial, 'device.enroll_key_release', (d) => ({
      changes: { enrollKeyHash: null },
      details: { old: d.enrollKeyHash },
    }));
  }

  releaseContinuityKey(actor: Actor, serial: string): Promise<DeviceView> {
    return this.release(actor, serial, 'device.continuity_key_release', (d) => ({
      changes: { continuityKey: null },
      details: { had_key: d.continuityKey !== null },
    }));
  }

  private async release(
    actor: Actor,
    serial: string,
    action: AuditAction,
    plan: (d: DeviceEntity) => { changes: DeviceChanges; details: Record<string, unknown> },
  ): Promise<DeviceView> {
    const device = await this.queries.found(serial);
    const { changes, details } = plan(device);
    await this.devices.update(device.id, changes);
    await this.audit.record({ action, actor, target: serial, details });
    return this.queries.get(serial);
  }
}
