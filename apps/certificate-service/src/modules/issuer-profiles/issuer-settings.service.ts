import { Inject, Injectable } from '@nestjs/common';
import { createOutboundHttp } from '@platform/egress';
import { generateScepRequester, isX509Purpose, type X509Purpose } from '@platform/pki';
import { actorLabel, type Actor } from '../../app/access/actor';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import type { IssuerKind } from '../../app/config/issuer-config';
import { AuditService } from '../audit/audit.service';
import type { PutIssuerProfileDto } from './dto/put-issuer-profile.dto';
import {
  SECRET_FIELDS,
  type ProfileSecrets,
  type ScepProfileSettings,
  type StoredProfile,
} from './issuer-profile.model';
import { IssuerProfilesError } from './issuer-profiles.errors';
import { IssuerProfilesRepository } from './issuer-profiles.repository';
import { sealSecrets, secretFlags } from './profile-secrets';
import { ProfileIssuerFactory } from './profile-issuer.factory';
import { ProfileIssuers, toStoredProfile } from './profile-issuers';
import { checkSecrets, validateProfileBody } from './profile-validation';
import type { ConnectionTestResult } from './connection-steps';
import { probeProfile } from './probe-profile';

/** One purpose's profile as the settings routes show it: no secret, only whether each is stored. */
export interface IssuerProfileView {
  purpose: X509Purpose;
  kind: IssuerKind;
  source: 'profile' | 'default';
  configured: boolean;
  problem: string | null;
  settings: Record<string, unknown>;
  secrets: Record<string, boolean>;
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** The settings routes' domain: read, validate and store profiles, audited; reload issuers. */
@Injectable()
export class IssuerSettingsService {
  constructor(
    private readonly repository: IssuerProfilesRepository,
    private readonly factory: ProfileIssuerFactory,
    private readonly issuers: ProfileIssuers,
    private readonly audit: AuditService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  purposeOf(raw: string): X509Purpose {
    if (!isX509Purpose(raw)) throw new IssuerProfilesError('issuer_purpose_invalid');
    return raw;
  }

  /** Reads refresh this process's issuers first, so `configured` matches the rows shown. */
  async list(): Promise<IssuerProfileView[]> {
    await this.issuers.refresh();
    const rows = new Map((await this.repository.all()).map((row) => [row.purpose, row]));
    return this.purposes().map((purpose) => {
      const row = rows.get(purpose);
      return this.view(purpose, row ? toStoredProfile(row) : undefined);
    });
  }

  async get(purpose: X509Purpose): Promise<IssuerProfileView> {
    await this.issuers.refresh();
    return this.view(purpose, await this.stored(purpose));
  }

  async put(
    actor: Actor,
    purpose: X509Purpose,
    body: PutIssuerProfileDto,
  ): Promise<IssuerProfileView> {
    const { profile, secrets: given } = validateProfileBody(body, (url) => this.http().check(url));
    const before = await this.stored(purpose);
    const keptSecrets = this.keptSecrets(before, profile.kind, given);
    const secrets = onlyFieldsOf(profile.kind, { ...keptSecrets, ...given }, profile);
    if (profile.kind === 'scep') withRequester(profile.settings, secrets, before);
    checkSecrets(profile, secrets);
    const hasSecrets = Object.keys(secrets).length > 0;
    const key = this.config.issuers.secretKey;
    if (hasSecrets && key === undefined) throw new IssuerProfilesError('issuer_secret_key_missing');
    const row = await this.repository.put({
      purpose,
      kind: profile.kind,
      settings: profile.settings as unknown as Record<string, unknown>,
      sealedSecrets: hasSecrets && key ? sealSecrets(secrets, key, purpose) : null,
      updatedBy: actorLabel(actor),
    });
    await this.issuers.reload();
    const after = toStoredProfile(row);
    await this.audit.record({
      action: 'settings.issuer_profile_change',
      actor,
      target: purpose,
      details: {
        old: before ? auditView(before, this.factory.secretsOf(before)) : null,
        new: after ? auditView(after, secrets) : null,
        secrets_changed: Object.keys(given).sort(),
      },
    });
    return this.view(purpose, after);
  }

  /** A real check of the stored profile (or the default kind): reported, never thrown. */
  async testConnection(purpose: X509Purpose): Promise<ConnectionTestResult & { kind: string }> {
    return probeProfile(await this.stored(purpose), this.config, this.factory);
  }

  private async stored(purpose: X509Purpose): Promise<StoredProfile | undefined> {
    const row = await this.repository.find(purpose);
    return row ? toStoredProfile(row) : undefined;
  }

  /** Secrets kept from the stored profile: same kind only; unreadable ones must be sent again. */
  private keptSecrets(
    before: StoredProfile | undefined,
    kind: IssuerKind,
    given: ProfileSecrets,
  ): ProfileSecrets {
    if (!before || before.kind !== kind || before.sealedSecrets === null) return {};
    const opened = this.factory.secretsOf(before);
    if (opened !== undefined) return opened;
    // the SCEP requester key is generated, not sent: a new one replaces an unreadable one
    const needed = SECRET_FIELDS[kind].filter(
      (field) => given[field] === undefined && field !== 'requester_key_pem',
    );
    if (needed.length === 0) return {};
    throw new IssuerProfilesError('issuer_secret_unreadable', { fields: needed });
  }

  private view(purpose: X509Purpose, profile: StoredProfile | undefined): IssuerProfileView {
    const entry = this.issuers.entry(purpose);
    const secrets = profile ? this.factory.secretsOf(profile) : {};
    return {
      purpose,
      kind: profile?.kind ?? this.config.issuers.defaultKind,
      source: profile ? 'profile' : 'default',
      configured: entry.configured,
      problem: entry.problem,
      settings: profile?.settings ?? {},
      secrets: secretFlags(secrets),
      updatedAt: profile?.updatedAt ?? null,
      updatedBy: profile?.updatedBy ?? null,
    };
  }

  private purposes(): readonly X509Purpose[] {
    return ['wifi', 'user_mtls', 'ad_logon', 'vpn'];
  }

  private http() {
    return createOutboundHttp({
      caller: 'certificate-service issuers',
      policy: this.config.issuers.egress,
    });
  }
}

/** Only the secrets the profile's kind (and EST auth mode) uses. */
function onlyFieldsOf(
  kind: IssuerKind,
  secrets: ProfileSecrets,
  profile: { kind: IssuerKind; settings: unknown },
): ProfileSecrets {
  const fields: readonly string[] = SECRET_FIELDS[kind];
  const mode = profile.kind === 'est' ? (profile.settings as { auth_mode: string }).auth_mode : '';
  return Object.fromEntries(
    Object.entries(secrets).filter(
      ([field, value]) =>
        value !== undefined &&
        fields.includes(field) &&
        !(mode === 'basic' && field === 'client_key_pem') &&
        !(mode === 'client_certificate' && field === 'password'),
    ),
  ) as ProfileSecrets;
}

/**
 * The SCEP requester identity: kept from the stored SCEP profile, generated at the first save
 * (RSA-2048 key and a self-signed certificate; the key is a secret).
 */
function withRequester(
  settings: ScepProfileSettings,
  secrets: ProfileSecrets,
  before: StoredProfile | undefined,
): void {
  const stored = before?.kind === 'scep' ? (before.settings as Partial<ScepProfileSettings>) : {};
  if (secrets.requester_key_pem && stored.requester_certificate_pem) {
    settings.requester_certificate_pem = stored.requester_certificate_pem;
    return;
  }
  const requester = generateScepRequester();
  settings.requester_certificate_pem = requester.certificatePem;
  secrets.requester_key_pem = requester.keyPem;
}

/** What the audit record keeps of a profile: kind, settings, which secrets are stored. */
function auditView(profile: StoredProfile, secrets: ProfileSecrets | undefined) {
  return { kind: profile.kind, settings: profile.settings, secrets: secretFlags(secrets) };
}
