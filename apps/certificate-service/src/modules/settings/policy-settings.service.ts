import { Inject, Injectable } from '@nestjs/common';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { AuditService } from '../audit/audit.service';
import { actorLabel, type Actor } from '../../app/access/actor';
import {
  sourceAuthFromJson,
  sourceAuthToJson,
  type EnrollSourceAuthPolicy,
} from './enroll-source-auth.policy';
import { PolicySettingsRepository } from './policy-settings.repository';
import {
  keyholderPolicyFromJson,
  keyholderPolicyToJson,
  type KeyholderPolicy,
} from './keyholder.policy';
import { sshKeyPolicyFromJson, sshKeyPolicyToJson, type SshKeyPolicy } from './ssh-key.policy';
import {
  k8sPromptPolicyFromJson,
  k8sPromptPolicyToJson,
  type K8sPromptPolicy,
} from './k8s-prompt.policy';
import {
  saAutoApproveForAudit,
  saAutoApproveFromJson,
  saAutoApproveToJson,
  type SaAutoApprovePolicy,
} from './sa-auto-approve.policy';
import { CorpOwnershipWebhook } from './corp-ownership-webhook';
import {
  appAttestPolicyFromJson,
  appAttestPolicyToJson,
  type AppAttestPolicy,
} from './app-attest.policy';

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
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly corpWebhook: CorpOwnershipWebhook,
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

  /**
   * `webhookSecret`: undefined keeps the stored secret, null removes it, a string replaces it
   * (sealed). The URL passes the request-forgery guard's checks before anything is stored.
   */
  async setSaAutoApprove(
    actor: Actor,
    input: Omit<SaAutoApprovePolicy, 'webhookSecretSealed' | 'attestation'> & {
      webhookSecret?: string | null;
      /** Undefined keeps the stored step. */
      attestation?: SaAutoApprovePolicy['attestation'];
    },
  ): Promise<Stored<SaAutoApprovePolicy>> {
    const before = await this.saAutoApprove();
    if (input.webhookUrl !== null) this.corpWebhook.checkUrl(input.webhookUrl);
    const { webhookSecret, ...fields } = input;
    const policy: SaAutoApprovePolicy = {
      ...fields,
      attestation: fields.attestation ?? before.value.attestation,
      webhookSecretSealed:
        webhookSecret === undefined
          ? before.value.webhookSecretSealed
          : webhookSecret === null
            ? null
            : this.corpWebhook.seal(webhookSecret),
    };
    const row = await this.settings.put(
      'sa_auto_approve',
      saAutoApproveToJson(policy),
      actorLabel(actor),
    );
    await this.audit.record({
      action: 'settings.sa_auto_approve_change',
      actor,
      target: 'sa_auto_approve',
      details: {
        old: saAutoApproveForAudit(before.value),
        new: saAutoApproveForAudit(saAutoApproveFromJson(row.value)),
      },
    });
    return {
      value: saAutoApproveFromJson(row.value),
      updatedAt: row.updatedAt,
      updatedBy: row.updatedBy,
    };
  }

  /** SSH key binding step and auto-approval (system settings). */
  async sshKeyPolicy(): Promise<Stored<SshKeyPolicy>> {
    const row = await this.settings.find('ssh_keys');
    return {
      value: sshKeyPolicyFromJson(row?.value),
      updatedAt: row?.updatedAt ?? null,
      updatedBy: row?.updatedBy ?? null,
    };
  }

  /** Key-holder token gate and allowed networks (system settings). */
  async keyholderPolicy(): Promise<Stored<KeyholderPolicy>> {
    const row = await this.settings.find('keyholder');
    return {
      value: keyholderPolicyFromJson(row?.value),
      updatedAt: row?.updatedAt ?? null,
      updatedBy: row?.updatedBy ?? null,
    };
  }

  /** Prompt-on-issuance step for cluster access (system settings; env default until set). */
  async k8sPromptPolicy(): Promise<Stored<K8sPromptPolicy>> {
    const row = await this.settings.find('k8s');
    return {
      value: k8sPromptPolicyFromJson(row?.value, this.config.k8s.promptStep),
      updatedAt: row?.updatedAt ?? null,
      updatedBy: row?.updatedBy ?? null,
    };
  }

  /** App attestation enforcement step (system settings; `off` until set). */
  async appAttestPolicy(): Promise<Stored<AppAttestPolicy>> {
    const row = await this.settings.find('app_attest');
    return {
      value: appAttestPolicyFromJson(row?.value),
      updatedAt: row?.updatedAt ?? null,
      updatedBy: row?.updatedBy ?? null,
    };
  }

  /** Changes the given parts of the system settings; audited with old and new values. */
  async setSystem(actor: Actor, changes: SystemSettingsChange): Promise<SystemSettings> {
    const before = await this.system();
    const label = actorLabel(actor);
    const sshKeys = { ...before.sshKeys.value, ...changes.sshKeys };
    const keyholder = { ...before.keyholder.value, ...changes.keyholder };
    if (changes.sshKeys) await this.settings.put('ssh_keys', sshKeyPolicyToJson(sshKeys), label);
    if (changes.keyholder) {
      await this.settings.put('keyholder', keyholderPolicyToJson(keyholder), label);
    }
    if (changes.k8s) {
      const k8s = { ...before.k8s.value, ...changes.k8s };
      await this.settings.put('k8s', k8sPromptPolicyToJson(k8s), label);
    }
    if (changes.appAttest) {
      const appAttest = { ...before.appAttest.value, ...changes.appAttest };
      await this.settings.put('app_attest', appAttestPolicyToJson(appAttest), label);
    }
    const after = await this.system();
    await this.audit.record({
      action: 'settings.system_change',
      actor,
      target: 'system',
      details: { old: systemToJson(before), new: systemToJson(after) },
    });
    return after;
  }

  async system(): Promise<SystemSettings> {
    return {
      sshKeys: await this.sshKeyPolicy(),
      keyholder: await this.keyholderPolicy(),
      k8s: await this.k8sPromptPolicy(),
      appAttest: await this.appAttestPolicy(),
    };
  }
}

/** The system settings, one stored policy per part. */
export interface SystemSettings {
  sshKeys: Stored<SshKeyPolicy>;
  keyholder: Stored<KeyholderPolicy>;
  k8s: Stored<K8sPromptPolicy>;
  appAttest: Stored<AppAttestPolicy>;
}

export interface SystemSettingsChange {
  sshKeys?: Partial<SshKeyPolicy>;
  keyholder?: Partial<KeyholderPolicy>;
  k8s?: Partial<K8sPromptPolicy>;
  appAttest?: Partial<AppAttestPolicy>;
}

function systemToJson(settings: SystemSettings): Record<string, unknown> {
  return {
    ssh_keys: sshKeyPolicyToJson(settings.sshKeys.value),
    keyholder: keyholderPolicyToJson(settings.keyholder.value),
    k8s: k8sPromptPolicyToJson(settings.k8s.value),
    app_attest: appAttestPolicyToJson(settings.appAttest.value),
  };
}
