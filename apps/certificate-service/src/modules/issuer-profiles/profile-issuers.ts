import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  isX509Purpose,
  X509_PURPOSES,
  type CertificateIssuer,
  type X509Purpose,
} from '@platform/pki';
import { loggableError } from '@platform/logging';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import type { IssuerKind } from '../../app/config/issuer-config';
import type { StoredProfile } from './issuer-profile.model';
import { ProfileIssuerFactory } from './profile-issuer.factory';
import { IssuerProfilesRepository, type IssuerProfileRow } from './issuer-profiles.repository';
import { UnavailableIssuer } from './unavailable-issuer';

/** The issuer a purpose's profile (or `CERTSVC_ISSUER`) gives, as last loaded. */
export interface ProfileIssuerEntry {
  kind: IssuerKind;
  /** `profile`: a stored profile; `default`: none stored, `CERTSVC_ISSUER` applies. */
  source: 'profile' | 'default';
  /** undefined: the built-in CA. */
  issuer: CertificateIssuer | undefined;
  /** False when the purpose cannot issue; `problem` says why. */
  configured: boolean;
  problem: string | null;
}

export function toStoredProfile(row: IssuerProfileRow): StoredProfile | undefined {
  if (!isX509Purpose(row.purpose)) return undefined;
  return { ...row, purpose: row.purpose, kind: row.kind as IssuerKind };
}

/**
 * The issuers built from `issuer_profiles`, in every process (API replicas and worker). A PUT
 * reloads the process that served it at once (`reload`). Whoever is about to use an issuer
 * (approval, revoke, the SCEP poller, the issuer routes) first calls `ensureFresh`, which
 * compares the table's revision (profile count and newest `updated_at`) at most once every
 * `CERTSVC_ISSUER_RELOAD_SECONDS` and rebuilds when it moved: other replicas and the worker
 * follow within that period, and no process runs a timer for it (the API starts none).
 */
@Injectable()
export class ProfileIssuers implements OnApplicationBootstrap {
  private readonly logger = new Logger('IssuerProfiles');
  private entries = new Map<X509Purpose, ProfileIssuerEntry>();
  private revision: string | undefined;
  /** When the revision was last compared (ms since the epoch). */
  private checkedAt = 0;
  private checking: Promise<void> | undefined;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly repository: IssuerProfilesRepository,
    private readonly factory: ProfileIssuerFactory,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.issuers.secretKeyDerived) {
      this.logger.warn(
        'CERTSVC_SCEP_ENC_KEY not set: dev mode seals issuer profile secrets with a well-known key',
      );
    }
    await this.reload();
  }

  /**
   * Follows profile changes made through other processes: compares the stored revision when
   * the last comparison is older than `CERTSVC_ISSUER_RELOAD_SECONDS` (one comparison at a
   * time; a failed one is logged and the issuers last built stay in use).
   */
  async ensureFresh(): Promise<void> {
    if (Date.now() - this.checkedAt < this.config.issuers.reloadSeconds * 1000) return;
    this.checking ??= this.refresh()
      .then(
        () => undefined,
        (error: unknown) => {
          this.logger.warn({ error: loggableError(error).message }, 'issuer profile reload failed');
        },
      )
      .finally(() => {
        this.checking = undefined;
      });
    await this.checking;
  }

  /** The entry of a purpose (before the first load: the default kind). */
  entry(purpose: X509Purpose): ProfileIssuerEntry {
    return this.entries.get(purpose) ?? this.defaultEntry(purpose);
  }

  /** Rebuilds when the stored profiles changed since the last load; true when it did. */
  async refresh(): Promise<boolean> {
    const revision = await this.repository.revision();
    this.checkedAt = Date.now();
    if (revision === this.revision) return false;
    await this.reload();
    return true;
  }

  /** Reads every profile and rebuilds the issuers (one load at a time). */
  async reload(): Promise<void> {
    while (this.loading) await this.loading;
    this.loading = this.load();
    try {
      await this.loading;
    } finally {
      this.loading = undefined;
    }
  }

  private async load(): Promise<void> {
    const revision = await this.repository.revision();
    const rows = await this.repository.all();
    const entries = new Map<X509Purpose, ProfileIssuerEntry>();
    for (const row of rows) {
      const profile = toStoredProfile(row);
      if (!profile) continue;
      entries.set(profile.purpose, this.profileEntry(profile));
    }
    for (const purpose of X509_PURPOSES) {
      if (!entries.has(purpose)) entries.set(purpose, this.defaultEntry(purpose));
    }
    this.entries = entries;
    this.revision = revision;
    this.checkedAt = Date.now();
  }

  private profileEntry(profile: StoredProfile): ProfileIssuerEntry {
    let issuer: CertificateIssuer | undefined;
    try {
      issuer = this.factory.build(profile);
    } catch (error) {
      issuer = new UnavailableIssuer(profile.kind, loggableError(error).message);
    }
    const problem = issuer instanceof UnavailableIssuer ? issuer.problem : null;
    if (problem) this.logger.warn({ purpose: profile.purpose }, problem);
    return { kind: profile.kind, source: 'profile', issuer, configured: !problem, problem };
  }

  private defaultEntry(purpose: X509Purpose): ProfileIssuerEntry {
    const kind = this.config.issuers.defaultKind;
    if (kind === 'built_in') {
      return { kind, source: 'default', issuer: undefined, configured: true, problem: null };
    }
    const problem = `CERTSVC_ISSUER=${kind} and no issuer profile is stored for ${purpose}: PUT /api/v1/settings/issuers/${purpose}`;
    return {
      kind,
      source: 'default',
      issuer: new UnavailableIssuer(kind, problem),
      configured: false,
      problem,
    };
  }
}
