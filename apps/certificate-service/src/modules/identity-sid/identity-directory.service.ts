import { Inject, Injectable, Logger } from '@nestjs/common';
import { actorLabel, type Actor } from '../../app/access/actor';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { AuditService } from '../audit/audit.service';
import { openBindPassword, sealBindPassword } from './directory-secret';
import type { PutIdentityDirectoryDto } from './dto/identity-directory.dto';
import {
  IdentityDirectoryRepository,
  type IdentityDirectoryRow,
} from './identity-directory.repository';
import {
  directoryView,
  validateDirectoryBody,
  type IdentityDirectoryView,
} from './identity-directory.settings';
import { IdentitySidError } from './identity-sid.errors';
import {
  DirectoryUnavailable,
  probeDirectory,
  type DirectoryStep,
  type DirectoryTarget,
} from './ldap-directory';

export interface DirectoryTestResult {
  ok: boolean;
  steps: { step: DirectoryStep; ok: boolean; detail: string }[];
}

/** The directory setting: read, validate and store (password sealed), audited; the target. */
@Injectable()
export class IdentityDirectoryService {
  private readonly logger = new Logger('IdentityDirectory');

  constructor(
    private readonly repository: IdentityDirectoryRepository,
    private readonly audit: AuditService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  async get(): Promise<IdentityDirectoryView> {
    return directoryView(await this.repository.find());
  }

  async put(actor: Actor, body: PutIdentityDirectoryDto): Promise<IdentityDirectoryView> {
    const settings = validateDirectoryBody(body, this.config.identitySid.egress);
    const before = await this.repository.find();
    const key = this.config.issuers.secretKey;
    let sealed: string | null;
    if (body.bind_password !== undefined) {
      if (key === undefined) throw new IdentitySidError('identity_directory_secret_key_missing');
      sealed = sealBindPassword(body.bind_password, key);
    } else {
      sealed = this.keptPassword(before, settings.url, settings.bindDn);
    }
    if (settings.enabled && sealed === null) {
      throw new IdentitySidError('identity_directory_settings_invalid', {
        field: 'bind_password',
        problem: 'required to enable the directory (send it again when url or bind_dn changes)',
      });
    }
    const row = await this.repository.put({
      ...settings,
      sealedBindPassword: sealed,
      updatedBy: actorLabel(actor),
    });
    const after = directoryView(row);
    await this.audit.record({
      action: 'settings.identity_directory_change',
      actor,
      target: 'identity_directory',
      details: {
        old: before ? auditView(directoryView(before)) : null,
        new: auditView(after),
        bind_password_changed: body.bind_password !== undefined,
      },
    });
    return after;
  }

  /**
   * What a look-up dials, or why none can be made: 409 `identity_directory_not_configured`
   * when nothing is stored or it is disabled; 503 `identity_directory_unavailable` when the
   * stored password cannot be opened (the key changed; logged for the administrator).
   */
  async target(): Promise<DirectoryTarget> {
    const row = await this.repository.find();
    if (!row || !row.enabled) throw new IdentitySidError('identity_directory_not_configured');
    const password =
      row.sealedBindPassword === null
        ? undefined
        : openBindPassword(row.sealedBindPassword, this.config.issuers.secretKey);
    if (password === undefined) {
      this.logger.error(
        'identity directory: the stored bind password cannot be opened with CERTSVC_SCEP_ENC_KEY; store it again',
      );
      throw new IdentitySidError('identity_directory_unavailable');
    }
    return {
      url: row.url,
      bindDn: row.bindDn,
      password,
      baseDn: row.baseDn,
      upnAttribute: row.upnAttribute,
      sidAttribute: row.sidAttribute,
      timeoutMs: row.timeoutMs,
      caPem: row.caPem,
    };
  }

  /** Resolution, connect, bind, base read of the stored setting (enabled or not): reported. */
  async testConnection(): Promise<DirectoryTestResult> {
    const row = await this.repository.find();
    if (!row) throw new IdentitySidError('identity_directory_not_configured');
    const steps: DirectoryTestResult['steps'] = [];
    const password =
      row.sealedBindPassword === null
        ? undefined
        : openBindPassword(row.sealedBindPassword, this.config.issuers.secretKey);
    if (password === undefined) {
      steps.push({ step: 'bind', ok: false, detail: 'no readable bind password is stored' });
      return { ok: false, steps };
    }
    try {
      await probeDirectory(
        { ...row, password },
        { egress: this.config.identitySid.egress },
        (step, ok, detail) => steps.push({ step, ok, detail }),
      );
      return { ok: true, steps };
    } catch (error) {
      if (!(error instanceof DirectoryUnavailable)) throw error;
      steps.push({ step: error.step, ok: false, detail: error.message });
      return { ok: false, steps };
    }
  }

  /** The stored password is kept only while it would go to the same server for the same DN. */
  private keptPassword(
    before: IdentityDirectoryRow | null,
    url: string,
    bindDn: string,
  ): string | null {
    if (!before || before.sealedBindPassword === null) return null;
    // another server or account: the stored password is dropped, never sent there
    if (before.url !== url || before.bindDn !== bindDn) return null;
    if (openBindPassword(before.sealedBindPassword, this.config.issuers.secretKey) === undefined) {
      throw new IdentitySidError('identity_directory_secret_unreadable');
    }
    return before.sealedBindPassword;
  }
}

/** What the audit record keeps: everything but the password (only whether one is stored). */
function auditView(view: IdentityDirectoryView): Record<string, unknown> {
  return {
    enabled: view.enabled,
    url: view.url,
    bind_dn: view.bindDn,
    has_bind_password: view.hasBindPassword,
    base_dn: view.baseDn,
    upn_attribute: view.upnAttribute,
    sid_attribute: view.sidAttribute,
    timeout_ms: view.timeoutMs,
    ca_pem: view.caPem !== null,
  };
}
