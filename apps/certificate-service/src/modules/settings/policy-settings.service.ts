import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { actorLabel, type Actor } from '../../app/access/actor';
import {
  sourceAuthFromJson,
  sourceAuthToJson,
  type EnrollSourceAuthPolicy,
} from './enroll-source-auth.policy';
import { PolicySettingsRepository } from './policy-settings.repository';
import {
  saAutoApproveFromJson,
  saAutoApproveToJson,
  type SaAutoApprovePolicy,
} from './sa-auto-approve.policy';

export interface Stored<T> {
  value: T;
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** The fleet policies on enrollment source-auth and corp-ownership; every change is audited. */
@Injectable()
export class PolicySettingsService {
  constructor(
    private readonly settings: PolicySettingsRepository,
    private readonly audit: AuditService,
  ) {}

  async enrollSourceAuth(): Promise<Stored<EnrollSourceAuthPolicy>> {
    const row = await this.settings.find('enroll_source_auth');
    return {
      value: sourceAuthFromJson(row?.value),
      updatedAt: row?.updatedAt ?? null,
      updatedBy: row?.updatedBy ?? null,
    };
  }

  async setEnrollSourceAuth(
    actor: Actor,
    policy: EnrollSourceAuthPolicy,
  ): Promise<Stored<EnrollSourceAuthPolicy>> {
    const before = await this.enrollSourceAuth();
    const row = await this.settings.put(
      'enroll_source_auth',
      sourceAuthToJson(policy),
      actorLabel(actor),
    );
    await this.audit.record({
      action: 'settings.enroll_source_auth_change',
      actor,
      target: 'enroll_source_auth',
      details: { old: sourceAuthToJson(before.value), new: row.value },
    });
    return {
      value: sourceAuthFromJson(row.value),
      updatedAt: row.updatedAt,
      updatedBy: row.updatedBy,
    };
  }

  async saAutoApprove(): Promise<Stored<SaAutoApprovePolicy>> {
    const row = await this.settings.find('sa_auto_approve');
    return {
      value: saAutoApproveFromJson(row?.value),
      updatedAt: row?.updatedAt ?? null,
      updatedBy: row?.updatedBy ?? null,
    };
  }

  async setSaAutoApprove(
    actor: Actor,
    policy: SaAutoApprovePolicy,
  ): Promise<Stored<SaAutoApprovePolicy>> {
    const before = await this.saAutoApprove();
    const row = await this.settings.put(
      'sa_auto_approve',
      saAutoApproveToJson(policy),
      actorLabel(actor),
    );
    await this.audit.record({
      action: 'settings.sa_auto_approve_change',
      actor,
      target: 'sa_auto_approve',
      details: { old: saAutoApproveToJson(before.value), new: row.value },
    });
    return {
      value: saAutoApproveFromJson(row.value),
      updatedAt: row.updatedAt,
      updatedBy: row.updatedBy,
    };
  }
}
