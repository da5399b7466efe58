import { Injectable, Logger } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import { loggableError } from '@platform/logging';
import { actorLabel, type Actor } from '../../app/access/actor';
import { AuditService } from '../audit/audit.service';
import { DevicesRepository } from '../devices/devices.repository';
import type { DeviceEntity } from '../devices/device.entity';
import { PrincipalAliasesService } from '../principal-aliases/principal-aliases.service';
import { PolicySettingsService } from '../settings/policy-settings.service';
import { SshKeyEvents } from './ssh-key-events';
import { checkBinding } from './ssh-key-binding';
import type { SshKeyEntity } from './ssh-key.entity';
import { SshKeysError } from './ssh-keys.errors';
import { SshKeysRepository, type SshKeyFilter, type SshKeyRow } from './ssh-keys.repository';
import { SshRevocationsRepository } from './ssh-revocations.repository';

/** Outcome of a revoke: an active key is revoked, a pending one rejected (specification). */
export interface SshKeyRevocation {
  row: SshKeyRow;
  outcome: 'revoked' | 'rejected';
}

/** Administration of registered raw keys: lists, approve, reject, revoke, device cascade. */
@Injectable()
export class SshKeysService {
  private readonly logger = new Logger('SshKeys');
  constructor(
    private readonly keys: SshKeysRepository,
    private readonly feed: SshRevocationsRepository,
    private readonly devices: DevicesRepository,
    private readonly aliases: PrincipalAliasesService,
    private readonly policies: PolicySettingsService,
    private readonly events: SshKeyEvents,
    private readonly audit: AuditService,
  ) {}

  list(filter: SshKeyFilter, limit: number, offset: number) {
    return this.keys.page(filter, limit, offset);
  }

  async ofDevice(serial: string): Promise<SshKeyRow[]> {
    const device = await this.devices.findBySerial(serial);
    if (!device) throw new SshKeysError('device_not_found');
    const keys = await this.keys.byDevice(device.id);
    return keys.map((key) => ({ key, serial: device.serial }));
  }

  async approve(actor: Actor, id: string): Promise<SshKeyRow> {
    const key = await this.pending(id);
    const device = await this.deviceOf(key);
    if (device?.blocked) throw new SshKeysError('device_blocked');
    const owner = device?.owner?.toLowerCase() ?? null;
    const policy = (await this.policies.sshKeyPolicy()).value;
    const binding =
      policy.binding === 'off'
        ? null
        : checkBinding({ deviceOwner: owner, claimedUser: null, comment: key.comment });
    // Re-checked against the owner at approval time; `enforce` refuses anything but a match.
    if (policy.binding === 'enforce' && binding?.verdict !== 'match') {
      throw new SshKeysError('ssh_key_binding_rejected', undefined, { verdict: binding?.verdict });
    }
    const approved = await this.keys.transaction((em) =>
      this.keys.transition(em, id, ['pending'], {
        state: 'active',
        approval: 'manual',
        owner,
        approvedAt: new Date(),
        approvedBy: actorLabel(actor),
        ...(binding ? { bindingVerdict: binding.verdict, bindingDetail: binding.detail } : {}),
      }),
    );
    if (!approved) throw new SshKeysError('ssh_key_not_pending');
    await this.audit.record({
      action: 'ssh_key.approve',
      actor,
      target: id,
      details: { serial: device?.serial ?? null, fingerprint: key.fingerprint, owner },
    });
    return { key: approved, serial: device?.serial ?? null };
  }

  async reject(actor: Actor, id: string, reason: string | null): Promise<SshKeyRow> {
    const key = await this.pending(id);
    const rejected = await this.keys.transaction((em) =>
      this.keys.transition(em, id, ['pending'], {
        state: 'rejected',
        rejectedAt: new Date(),
        rejectedBy: actorLabel(actor),
        statusReason: reason,
      }),
    );
    if (!rejected) throw new SshKeysError('ssh_key_not_pending');
    const device = await this.deviceOf(key);
    await this.audit.record({
      action: 'ssh_key.reject',
      actor,
      target: id,
      details: { serial: device?.serial ?? null, fingerprint: key.fingerprint, reason },
    });
    return { key: rejected, serial: device?.serial ?? null };
  }

  /** Revokes an active key (into the KRL and the feed) or rejects a pending one. */
  async revoke(actor: Actor, id: string, reason: string | null): Promise<SshKeyRevocation> {
    const key = await this.find(id);
    if (key.state === 'pending') {
      return { row: await this.reject(actor, id, reason), outcome: 'rejected' };
    }
    if (key.state !== 'active') throw new SshKeysError('ssh_key_not_revocable');
    const principals = await this.principalsOf(key);
    const by = actorLabel(actor);
    const revoked = await this.keys.transaction(async (em) => {
      const row = await this.keys.transition(em, id, ['active'], {
        state: 'revoked',
        revokedAt: new Date(),
        revokedBy: by,
        statusReason: reason,
      });
      if (row) await this.appendToFeed(em, [row], new Map([[row.id, principals]]), reason);
      return row;
    });
    if (!revoked) throw new SshKeysError('ssh_key_not_revocable');
    const device = await this.deviceOf(key);
    await this.audit.record({
      action: 'ssh_key.revoke',
      actor,
      target: id,
      details: { serial: device?.serial ?? null, fingerprint: key.fingerprint, reason },
    });
    await this.announce([revoked.id]);
    return { row: { key: revoked, serial: device?.serial ?? null }, outcome: 'revoked' };
  }

  /**
   * The SSH part of a full device revoke: every active key of the device revoked and every
   * pending one rejected, in one transaction; repeat is safe (nothing left to change). Throws
   * when the cascade fails, so the caller can report `ssh_keys_revoke_failed`.
   */
  async revokeAllOfDevice(
    actor: Actor | null,
    deviceId: string,
    reason = 'device revoked',
  ): Promise<{ revoked: number; rejected: number }> {
    const by = actor ? actorLabel(actor) : 'system';
    const live = (await this.keys.byDevice(deviceId)).filter((k) => k.state === 'active');
    const principals = new Map<string, string[]>();
    for (const key of live) principals.set(key.id, await this.principalsOf(key));
    const changed = await this.keys.transaction(async (em) => {
      const rows = await this.keys.revokeAllOfDevice(em, deviceId, new Date(), by, reason);
      const revoked = rows.filter((r) => r.state === 'revoked');
      await this.appendToFeed(em, revoked, principals, reason);
      return rows;
    });
    const revokedIds = changed.filter((r) => r.state === 'revoked').map((r) => r.id);
    if (changed.length > 0) {
      await this.audit.recordMany(
        changed.map((row) => ({
          action:
            row.state === 'revoked' ? ('ssh_key.revoke' as const) : ('ssh_key.reject' as const),
          actor,
          target: row.id,
          details: { fingerprint: row.fingerprint, reason, cascade: 'device' },
        })),
      );
    }
    if (revokedIds.length > 0) await this.announce(revokedIds);
    return { revoked: revokedIds.length, rejected: changed.length - revokedIds.length };
  }

  private async find(id: string): Promise<SshKeyEntity> {
    const key = isUUID(id, 'loose') ? await this.keys.findById(id) : null;
    if (!key) throw new SshKeysError('ssh_key_not_found');
    return key;
  }

  private async pending(id: string): Promise<SshKeyEntity> {
    const key = await this.find(id);
    if (key.state !== 'pending') throw new SshKeysError('ssh_key_not_pending');
    return key;
  }

  private async deviceOf(key: SshKeyEntity): Promise<DeviceEntity | null> {
    return this.devices.findById(key.deviceId);
  }

  /** Logins that lose the key: the owner's login and aliases, plus the auto-approval list. */
  private async principalsOf(key: SshKeyEntity): Promise<string[]> {
    const own = key.owner ? await this.aliases.principalsOf(key.owner) : [];
    if (key.approval !== 'auto') return own;
    const policy = (await this.policies.sshKeyPolicy()).value;
    return [...new Set([...own, ...(policy.autoApprove ? policy.autoApprovePrincipals : [])])];
  }

  private appendToFeed(
    em: EntityManager,
    rows: readonly SshKeyEntity[],
    principals: ReadonlyMap<string, string[]>,
    reason: string | null,
  ): Promise<void> {
    return this.feed.append(
      em,
      rows.map((row) => ({
        kind: 'key' as const,
        sshKeyId: row.id,
        fingerprint: row.fingerprint,
        certificateSerial: null,
        certificateKeyId: null,
        deviceId: row.deviceId,
        owner: row.owner,
        principals: principals.get(row.id) ?? [],
        reason,
        revokedAt: row.revokedAt ?? new Date(),
      })),
    );
  }

  /** Tells listeners (the KRL cache) after the commit; their failures are logged, not thrown. */
  private async announce(keyIds: string[]): Promise<void> {
    const errors = await this.events.revoked({ keyIds });
    for (const error of errors) {
      this.logger.error(
        { ssh_key_ids: keyIds, error: loggableError(error).message },
        'ssh key revocation listener failed',
      );
    }
  }
}
