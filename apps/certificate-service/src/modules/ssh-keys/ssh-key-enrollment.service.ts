import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { setSerial } from '../../app/request-context/request-context';
import { AuditService } from '../audit/audit.service';
import { DeviceCredentials } from '../devices/device-credentials.service';
import type { DeviceEntity } from '../devices/device.entity';
import { PolicySettingsService } from '../settings/policy-settings.service';
import type { SshKeyPolicy } from '../settings/ssh-key.policy';
import {
  OpenSshKeyError,
  parseOpenSshPublicKey,
  type OpenSshPublicKey,
} from './openssh-public-key';
import { checkBinding, type BindingResult } from './ssh-key-binding';
import type { SshKeyEntity } from './ssh-key.entity';
import { SshKeysError } from './ssh-keys.errors';
import { SshKeysRepository, type NewSshKey } from './ssh-keys.repository';

export interface SshKeyRegistration {
  serial: string;
  enrollmentToken: string;
  /** authorized_keys line: `<type> <base64> [comment]`. */
  publicKey: string;
  /** Overrides the line's comment when given. */
  comment: string | null;
  /** Person the agent registers the key for (email or UPN), used by the binding check. */
  user: string | null;
}

export interface RegisteredSshKey {
  key: SshKeyEntity;
  /** False when the same device sent a key it had already registered (nothing changed). */
  created: boolean;
}

/**
 * Device side of the registry (`/enroll/ssh-key*`): a device registers raw public keys with
 * its serial and enrollment token and reads their states.
 */
@Injectable()
export class SshKeyEnrollmentService {
  private readonly logger = new Logger('SshKeyEnrollment');
  constructor(
    private readonly credentials: DeviceCredentials,
    private readonly keys: SshKeysRepository,
    private readonly policies: PolicySettingsService,
    private readonly audit: AuditService,
  ) {}

  async register(input: SshKeyRegistration): Promise<RegisteredSshKey> {
    const parsed = parse(input.publicKey);
    const device = await this.credentials.authenticate(input.serial, input.enrollmentToken);
    setSerial(device.serial);
    const existing = await this.keys.findLive(parsed.fingerprint);
    if (existing) return this.sameDevice(existing, device);
    if (await this.keys.isRevoked(parsed.fingerprint)) throw new SshKeysError('ssh_key_revoked');

    const policy = (await this.policies.sshKeyPolicy()).value;
    const comment = input.comment ?? parsed.comment;
    const binding = bindingFor(policy, device, input.user, comment);
    const row = newKey(device, parsed, comment, binding, policy);
    const inserted = await this.keys.insert(row);
    if (!inserted) {
      // Lost a race with another registration of the same key.
      const winner = await this.keys.findLive(parsed.fingerprint);
      if (winner) return this.sameDevice(winner, device);
      throw new SshKeysError('ssh_key_in_use');
    }
    if (inserted.approval === 'auto') {
      await this.audit.record({
        action: 'ssh_key.approve',
        actor: null,
        target: inserted.id,
        details: {
          serial: device.serial,
          fingerprint: inserted.fingerprint,
          auto: true,
          principals: policy.autoApprovePrincipals,
        },
      });
    }
    this.logger.log(
      {
        serial: device.serial,
        ssh_key_id: inserted.id,
        fingerprint: inserted.fingerprint,
        state: inserted.state,
        binding_verdict: inserted.bindingVerdict,
      },
      'ssh key registered',
    );
    return { key: inserted, created: true };
  }

  /** Keys of the authenticated device, oldest first. */
  async status(serial: string, enrollmentToken: string): Promise<SshKeyEntity[]> {
    const device = await this.credentials.authenticate(serial, enrollmentToken);
    setSerial(device.serial);
    return this.keys.byDevice(device.id);
  }

  private sameDevice(existing: SshKeyEntity, device: DeviceEntity): RegisteredSshKey {
    if (existing.deviceId !== device.id) throw new SshKeysError('ssh_key_in_use');
    return { key: existing, created: false };
  }
}

function parse(line: string): OpenSshPublicKey {
  try {
    return parseOpenSshPublicKey(line);
  } catch (error) {
    if (error instanceof OpenSshKeyError) {
      throw new SshKeysError(
        error.problem === 'unsupported_type' ? 'ssh_key_type_unsupported' : 'ssh_key_invalid',
        error.message,
      );
    }
    throw error;
  }
}

function bindingFor(
  policy: SshKeyPolicy,
  device: DeviceEntity,
  user: string | null,
  comment: string | null,
): BindingResult | null {
  if (policy.binding === 'off') return null;
  return checkBinding({ deviceOwner: device.owner, claimedUser: user, comment });
}

function newKey(
  device: DeviceEntity,
  parsed: OpenSshPublicKey,
  comment: string | null,
  binding: BindingResult | null,
  policy: SshKeyPolicy,
): NewSshKey {
  const refused = policy.binding === 'enforce' && binding !== null && binding.verdict !== 'match';
  // Auto-approval never activates a key of a blocked device or one the binding step refuses.
  const auto = policy.autoApprove && !device.blocked && !refused;
  const now = new Date();
  return {
    id: randomUUID(),
    deviceId: device.id,
    owner: device.owner?.toLowerCase() ?? null,
    keyType: parsed.type,
    publicKey: parsed.blob,
    fingerprint: parsed.fingerprint,
    comment,
    state: refused ? 'rejected' : auto ? 'active' : 'pending',
    approval: auto ? 'auto' : null,
    bindingVerdict: binding?.verdict ?? 'not_checked',
    bindingDetail: binding?.detail ?? null,
    approvedAt: auto ? now : null,
    approvedBy: auto ? 'auto' : null,
    rejectedAt: refused ? now : null,
    rejectedBy: refused ? 'binding-check' : null,
    revokedAt: null,
    revokedBy: null,
    statusReason: refused ? `binding check: ${binding?.verdict}` : null,
  };
}
