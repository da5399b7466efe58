import { Injectable, Logger } from '@nestjs/common';
import { safeEqual, sha256Hex } from '@platform/auth';
import { PermissionGrant } from '../../app/access/permissions';
import { ServiceAccountPrincipal } from '../../app/access/access-context';
import { apiKeyPrefix, generateApiKey } from './api-key';
import { GrantRequest, validateGrant } from './permission-grant.rules';
import { ServiceAccountPermissionEntity } from './service-account-permission.entity';
import { ServiceAccountEntity } from './service-account.entity';
import { ServiceAccountsError } from './service-accounts.errors';
import { ServiceAccountsRepository } from './service-accounts.repository';

export interface CreatedServiceAccount {
  account: ServiceAccountEntity;
  /** The full key: returned once, never stored. */
  key: string;
}

@Injectable()
export class ServiceAccountsService {
  private readonly logger = new Logger('ServiceAccounts');

  constructor(private readonly repo: ServiceAccountsRepository) {}

  async create(
    input: { name: string; description?: string },
    createdByUserId: string,
  ): Promise<CreatedServiceAccount> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const generated = generateApiKey();
      const account = await this.repo.insert({
        name: input.name.trim(),
        description: input.description?.trim() || null,
        keyPrefix: generated.prefix,
        keyHash: generated.hash,
        createdByUserId,
      });
      if (account) return { account, key: generated.key };
    }
    throw new Error('could not allocate a unique service-account key prefix');
  }

  list(): Promise<ServiceAccountEntity[]> {
    return this.repo.list();
  }

  async get(id: string): Promise<ServiceAccountEntity> {
    const account = await this.repo.findById(id);
    if (!account) throw new ServiceAccountsError('service_account_not_found');
    return account;
  }

  /** Idempotent: revoking a revoked account changes nothing. */
  async revoke(id: string): Promise<void> {
    await this.get(id);
    await this.repo.revoke(id, new Date());
  }

  async grant(
    id: string,
    req: GrantRequest,
    grantedByUserId: string,
  ): Promise<ServiceAccountPermissionEntity> {
    const account = await this.get(id);
    if (account.revokedAt) throw new ServiceAccountsError('service_account_revoked');
    validateGrant(req, new Date());
    return this.repo.insertGrant({
      serviceAccountId: id,
      permission: req.permission,
      level: req.level,
      projectId: req.projectId ?? null,
      productId: req.productId ?? null,
      expiresAt: req.expiresAt ?? null,
      createdByUserId: grantedByUserId,
    });
  }

  async listGrants(id: string): Promise<ServiceAccountPermissionEntity[]> {
    await this.get(id);
    return this.repo.listGrants(id);
  }

  async revokeGrant(id: string, grantId: string): Promise<void> {
    await this.get(id);
    if (!(await this.repo.deleteGrant(id, grantId))) {
      throw new ServiceAccountsError('permission_not_found');
    }
  }

  /** The principal and unexpired grants of a valid, unrevoked key; null otherwise. */
  async authenticate(
    key: string,
  ): Promise<{ principal: ServiceAccountPrincipal; grants: PermissionGrant[] } | null> {
    const prefix = apiKeyPrefix(key);
    if (!prefix) return null;
    const account = await this.repo.findByPrefix(prefix);
    if (!account || account.revokedAt || !safeEqual(sha256Hex(key), account.keyHash)) return null;
    const now = new Date();
    this.repo.touchLastUsed(account.id, now).catch((err: unknown) => {
      this.logger.warn({ err }, 'last_used_at update failed');
    });
    const grants = await this.repo.activeGrants(account.id, now);
    return {
      principal: { kind: 'service_account', id: account.id, name: account.name },
      grants: grants.map((g) => ({
        permission: g.permission,
        level: g.level,
        projectId: g.projectId,
        productId: g.productId,
        expiresAt: g.expiresAt,
      })),
    };
  }
}
