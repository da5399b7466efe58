import { Inject, Injectable, Logger } from '@nestjs/common';
import { createOutboundHttp } from '@platform/egress';
import { EstIssuer, ScepIssuer, type CertificateIssuer } from '@platform/pki';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import type {
  EstProfileSecrets,
  EstProfileSettings,
  ProfileSecrets,
  ScepProfileSettings,
  StoredProfile,
} from './issuer-profile.model';
import { openSecrets } from './profile-secrets';
import { UnavailableIssuer } from './unavailable-issuer';

/** An EST or SCEP answer is a few KiB: the guard's body cap for issuer calls. */
const ISSUER_MAX_ANSWER_BYTES = 1024 * 1024;

/** Builds the issuer of a stored profile; `undefined` for `built_in` (the registry's CA). */
@Injectable()
export class ProfileIssuerFactory {
  private readonly logger = new Logger('IssuerProfiles');

  constructor(@Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig) {}

  build(profile: StoredProfile): CertificateIssuer | undefined {
    if (profile.kind === 'built_in') return undefined;
    const secrets = this.secretsOf(profile);
    if (secrets === undefined) {
      return new UnavailableIssuer(
        profile.kind,
        `the secrets of the ${profile.purpose} issuer profile cannot be opened with CERTSVC_SCEP_ENC_KEY; save the profile again`,
      );
    }
    if (profile.kind === 'est') {
      const settings = profile.settings as unknown as EstProfileSettings;
      return new EstIssuer(estConfig(settings, secrets), this.estHttp(settings, secrets));
    }
    const settings = profile.settings as unknown as ScepProfileSettings;
    if (!settings.requester_certificate_pem || !secrets.requester_key_pem) {
      return new UnavailableIssuer(
        'scep',
        'the SCEP requester identity is missing; save the profile again',
      );
    }
    return new ScepIssuer(
      {
        url: settings.url,
        caCertFingerprint: settings.ca_fingerprint,
        requester: {
          certificatePem: settings.requester_certificate_pem,
          keyPem: secrets.requester_key_pem,
        },
        ...(secrets.challenge_password === undefined
          ? {}
          : { challengePassword: secrets.challenge_password }),
      },
      { policy: this.config.issuers.egress },
    );
  }

  /** The profile's secrets; `{}` when none are stored, undefined when they cannot be opened. */
  secretsOf(profile: Pick<StoredProfile, 'purpose' | 'sealedSecrets'>): ProfileSecrets | undefined {
    if (profile.sealedSecrets === null) return {};
    return openSecrets(profile.sealedSecrets, this.config.issuers.secretKey, profile.purpose);
  }

  /** The egress client of an EST profile: the service's policy, the profile's TLS settings. */
  estHttp(settings: EstProfileSettings, secrets: EstProfileSecrets) {
    const policy = this.config.issuers.egress;
    return createOutboundHttp({
      caller: 'certificate-service est',
      policy: {
        ...policy,
        maxResponseBytes: Math.min(policy.maxResponseBytes, ISSUER_MAX_ANSWER_BYTES),
      },
      ...(settings.trust_anchor_pem ? { trustAnchors: [settings.trust_anchor_pem] } : {}),
      ...(settings.auth_mode === 'client_certificate' &&
      settings.client_certificate_pem &&
      secrets.client_key_pem
        ? { clientTls: { cert: settings.client_certificate_pem, key: secrets.client_key_pem } }
        : {}),
      logger: { warn: (fields, message) => this.logger.warn(fields, message) },
      labels: { subject: 'issuer call' },
    });
  }
}

export function estConfig(settings: EstProfileSettings, secrets: EstProfileSecrets) {
  return {
    url: settings.url,
    ...(settings.label === null ? {} : { label: settings.label }),
    auth:
      settings.auth_mode === 'basic'
        ? {
            mode: 'basic' as const,
            username: settings.username ?? '',
            password: secrets.password ?? '',
          }
        : { mode: 'client_certificate' as const },
  };
}
