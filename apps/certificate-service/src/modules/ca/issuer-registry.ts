import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import {
  BuiltInCaIssuer,
  certificatesFromPem,
  loadIssuingCa,
  signRootCrl,
  type CaMaterial,
  type CrlInput,
  X509_PURPOSES,
  type CertificateIssuer,
  type X509Purpose,
} from '@platform/pki';
import { ProfileIssuers, type ProfileIssuerEntry } from '../issuer-profiles/profile-issuers';
import { CaMaterialRepository } from './ca-material.repository';

export interface PurposeIssuerStatus extends Pick<ProfileIssuerEntry, 'configured' | 'problem'> {
  issuer: CertificateIssuer;
  /** `override`: injected with `use`; `profile`: a stored profile; `default`: CERTSVC_ISSUER. */
  source: 'override' | ProfileIssuerEntry['source'];
}
import { CaError } from './ca.errors';
import { caPointers, loadPublishedCaMaterial } from './ca-publication';

/**
 * The issuer of each X.509 purpose. Today every purpose uses the built-in CA (generated at
 * first start, keys sealed with `CERTSVC_CA_KEY_ENC_KEY`); SCEP and external issuers will be
 * registered per purpose by the issuer-profile settings. Revocation goes to the issuer
 * configured for the purpose now, not the one that issued (specification, Errors).
 */
@Injectable()
export class IssuerRegistry implements OnApplicationBootstrap {
  private readonly logger = new Logger('IssuerRegistry');
  private builtInIssuer: BuiltInCaIssuer | undefined;
  private material: CaMaterial | undefined;
  private readonly overrides = new Map<X509Purpose, CertificateIssuer>();

  constructor(
    private readonly store: CaMaterialRepository,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly profiles: ProfileIssuers,
  ) {}

  /** Runs after migrations (app.init): loads or generates the CA. */
  async onApplicationBootstrap(): Promise<void> {
    const { caKeyEncryptionKey, caKeyDerived, wifiLifetime } = this.config.pki;
    if (caKeyDerived) {
      this.logger.warn(
        'CERTSVC_CA_KEY_ENC_KEY not set: dev mode uses a well-known CA key-encryption key',
      );
    }
    const pointers = caPointers(this.config.pkiPublication);
    const material = await loadPublishedCaMaterial(
      this.store,
      caKeyEncryptionKey,
      pointers,
      this.logger,
    );
    this.material = material;
    this.builtInIssuer = new BuiltInCaIssuer(loadIssuingCa(material, caKeyEncryptionKey), {
      wifiLifetime,
      ...pointers.leaf,
    });
    this.logger.log({ created_at: material.createdAt.toISOString() }, 'built-in CA loaded');
  }

  /** The built-in CA (CRL signing, CA certificates of bundles). */
  builtIn(): BuiltInCaIssuer {
    if (!this.builtInIssuer) throw new CaError('ca_unavailable');
    return this.builtInIssuer;
  }

  /** The root CA's own CRL, signed with the root key opened for this call only. */
  signRootCrl(input: CrlInput): Buffer {
    if (!this.material) throw new CaError('ca_unavailable');
    return signRootCrl(this.material, this.config.pki.caKeyEncryptionKey, input);
  }

  /**
   * The CA chain of a stored certificate: the one an external issuer sent with it
   * (`certificates.chain_pem`), else the built-in CA's. Issuing CA first, root last.
   */
  chainFor(chainPem: string | null): Buffer[] {
    return chainPem ? certificatesFromPem(chainPem) : this.builtInChain();
  }

  /** CA chain of the built-in CA: issuing CA first, root last. */
  builtInChain(): Buffer[] {
    const { issuingDer, rootDer } = this.builtIn().caCertificates();
    return [issuingDer, rootDer];
  }

  /**
   * Picks up issuer-profile changes made through another process (at most one check every
   * `CERTSVC_ISSUER_RELOAD_SECONDS`): call before `forPurpose` where an issuer is used.
   */
  ensureFresh(): Promise<void> {
    return this.profiles.ensureFresh();
  }

  /**
   * The issuer of a purpose: one injected with `use` (tests), else the one its issuer profile
   * (or `CERTSVC_ISSUER`) gives, else the built-in CA.
   */
  forPurpose(purpose: X509Purpose): CertificateIssuer {
    return this.overrides.get(purpose) ?? this.profiles.entry(purpose).issuer ?? this.builtIn();
  }

  /** Where a purpose's issuer comes from and whether it can issue (`GET /api/v1/issuer`). */
  status(purpose: X509Purpose): PurposeIssuerStatus {
    const issuer = this.forPurpose(purpose);
    if (this.overrides.has(purpose)) {
      return { issuer, source: 'override', configured: true, problem: null };
    }
    const { source, configured, problem } = this.profiles.entry(purpose);
    return { issuer, source, configured, problem };
  }

  /** Replaces the issuer of a purpose (issuer profiles; tests inject failing issuers). */
  use(purpose: X509Purpose, issuer: CertificateIssuer | undefined): void {
    if (issuer) this.overrides.set(purpose, issuer);
    else this.overrides.delete(purpose);
  }

  purposes(): readonly X509Purpose[] {
    return X509_PURPOSES;
  }
}
