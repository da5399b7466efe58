import { isUUID } from 'class-validator';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@platform/auth';
import { isPurpose, type Purpose } from '../../app/domain/purposes';
import { AuditService } from '../audit/audit.service';
import { actorLabel, type Actor, type ServiceAccountActor } from '../../app/access/actor';
import { SERVICE_ACCOUNT_ROLE } from '../../app/access/roles';
import type { ServiceAccountEntity } from './service-account.entity';
import { expiryOf, issueServiceAccountToken } from './service-account-token';
import { ServiceAccountsError } from './service-accounts.errors';
import { ServiceAccountsRepository } from './service-accounts.repository';

export const DEFAULT_ALLOWED_PURPOSES: readonly Purpose[] = ['wifi'];
const LAST_USED_RESOLUTION_MS = 60_000;
export interface CreateServiceAccount {
  name: string;
  expiresInDays?: number;
  allowedPurposes?: string[];
}

@Injectable()
export class ServiceAccountsService {
  constructor(
    private readonly accounts: ServiceAccountsRepository,
    private readonly audit: AuditService,
  ) {}

  /** Creates an account; the returned token is shown once and never stored. */
  async create(
    actor: Actor,
    input: CreateServiceAccount,
  ): Promise<{ account: ServiceAccountEntity; token: string }> {
    const purposes = this.purposes(input.allowedPurposes ?? [...DEFAULT_ALLOWED_PURPOSES]);
    const issued = issueServiceAccountToken();
    const expiresInDays = input.expiresInDays ?? 0;
    const account = await this.accounts.insert({
      id: randomUUID(),
      name: input.name.trim(),
      tokenHash: issued.hash,
      tokenPrefix: issued.displayPrefix,
      enabled: true,
      expiresInDays,
      expiresAt: expiryOf(new Date(), expiresInDays),
      allowedPurposes: purposes,
      createdBy: actorLabel(actor),
    });
    await this.audit.record({
      action: 'service_account.create',
      actor,
      target: account.id,
      details: { name: account.name, expires_in_days: expiresInDays, allowed_purposes: purposes },
    });
    return { account, token: issued.token };
  }

  list(): Promise<ServiceAccountEntity[]> {
    return this.accounts.list();
  }

  async setEnabled(actor: Actor, id: string, enabled: boolean): Promise<ServiceAccountEntity> {
    const account = this.found(
      isUUID(id, 'loose') ? await this.accounts.update(id, { enabled }) : null,
    );
    await this.audit.record({
      action: enabled ? 'service_account.enable' : 'service_account.disable',
      actor,
      target: id,
      details: { name: account.name },
    });
    return account;
  }

  async setAllowedPurposes(
    actor: Actor,
    id: string,
    requested: string[],
  ): Promise<ServiceAccountEntity> {
    const before = this.found(isUUID(id, 'loose') ? await this.accounts.findById(id) : null);
    const allowedPurposes = this.purposes(requested);
    const after = this.found(await this.accounts.update(id, { allowedPurposes }));
    await this.audit.record({
      action: 'service_account.allowed_purposes_change',
      actor,
      target: id,
      details: { name: after.name, old: before.allowedPurposes, new: allowedPurposes },
    });
    return after;
  }

  async delete(actor: Actor, id: string): Promise<void> {
    const account = this.found(isUUID(id, 'loose') ? await this.accounts.findById(id) : null);
    if (!(await this.accounts.delete(id)))
      throw new ServiceAccountsError('service_account_not_found');
    await this.audit.record({
      action: 'service_account.delete',
      actor,
      target: id,
      details: { name: account.name },
    });
  }

  /** The actor behind a `wca_*` token, or null when unknown, disabled or expired. */
  async authenticate(token: string, now = new Date()): Promise<ServiceAccountActor | null> {
    const account = await this.accounts.findByTokenHash(sha256Hex(token));
    if (!account || !account.enabled) return null;
    if (account.expiresAt !== null && account.expiresAt.getTime() <= now.getTime()) return null;
    if (
      !account.lastUsedAt ||
      now.getTime() - account.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS
    ) {
      await this.accounts.touchLastUsed(account.id, now);
    }
    return {
      kind: 'service_account',
      id: account.id,
      name: account.name,
      role: SERVICE_ACCOUNT_ROLE,
      roles: [SERVICE_ACCOUNT_ROLE],
      allowedPurposes: account.allowedPurposes.filter(isPurpose),
    };
  }

  private purposes(requested: string[]): Purpose[] {
    const unique = [...new Set(requested)];
    if (unique.length === 0 || !unique.every(isPurpose))
      throw new ServiceAccountsError('invalid_purposes');
    return unique;
  }

  private found(account: ServiceAccountEntity | null): ServiceAccountEntity {
    if (!account) throw new ServiceAccountsError('service_account_not_found');
    return account;
  }
}
