import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { EgressUrlCheck } from '@platform/egress';
import { certificatesFromPem, EST_AUTH_MODES, EST_LABEL_PATTERN } from '@platform/pki';
import { ISSUER_KINDS, type IssuerKind } from '../../app/config/issuer-config';
import type { PutIssuerProfileDto } from './dto/put-issuer-profile.dto';
import type {
  EstProfileSettings,
  ProfileSecrets,
  ProfileSettings,
  ScepProfileSettings,
} from './issuer-profile.model';
import { IssuerProfilesError } from './issuer-profiles.errors';

/** The body's fields each kind takes (besides `kind`). */
const FIELDS: Record<IssuerKind, readonly (keyof PutIssuerProfileDto)[]> = {
  built_in: [],
  est: [
    'url',
    'label',
    'auth_mode',
    'username',
    'password',
    'trust_anchor_pem',
    'client_certificate_pem',
    'client_key_pem',
  ],
  scep: ['url', 'ca_fingerprint', 'challenge_password'],
};

export interface ValidatedProfile {
  profile: ProfileSettings;
  /** The secrets the body carries (others are kept from the stored profile). */
  secrets: ProfileSecrets;
}

function settingInvalid(field: string, problem: string): IssuerProfilesError {
  return new IssuerProfilesError('issuer_settings_invalid', { field, problem });
}

/** Checks a PUT body for its kind; the URL passes the egress guard's checks that need no DNS. */
export function validateProfileBody(
  body: PutIssuerProfileDto,
  checkUrl: (url: string) => EgressUrlCheck,
): ValidatedProfile {
  const kind = body.kind as IssuerKind;
  if (!ISSUER_KINDS.includes(kind)) {
    throw new IssuerProfilesError('issuer_kind_invalid', { kind: body.kind.slice(0, 32) });
  }
  for (const [field, value] of Object.entries(body)) {
    if (field === 'kind' || value === undefined) continue;
    if (!FIELDS[kind].includes(field as keyof PutIssuerProfileDto)) {
      throw settingInvalid(field, `not a setting of kind ${kind}`);
    }
  }
  if (kind === 'built_in') return { profile: { kind, settings: {} }, secrets: {} };
  const url = validUrl(body.url, checkUrl, kind);
  if (kind === 'scep') {
    const fingerprint = (body.ca_fingerprint ?? '').replace(/[\s:]/g, '').toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(fingerprint)) {
      throw settingInvalid('ca_fingerprint', 'SHA-256 of the CA certificate, 64 hex digits');
    }
    const settings: ScepProfileSettings = {
      url,
      ca_fingerprint: fingerprint,
      requester_certificate_pem: null,
    };
    return {
      profile: { kind, settings },
      secrets: definedSecrets({ challenge_password: body.challenge_password }),
    };
  }
  return validateEst(body, url);
}

function validateEst(body: PutIssuerProfileDto, url: string): ValidatedProfile {
  const authMode = body.auth_mode as EstProfileSettings['auth_mode'];
  if (!EST_AUTH_MODES.includes(authMode)) {
    throw settingInvalid('auth_mode', 'basic or client_certificate');
  }
  if (body.label !== undefined && !EST_LABEL_PATTERN.test(body.label)) {
    throw settingInvalid('label', 'one URL path segment: letters, digits, . _ ~ -');
  }
  if (authMode === 'basic' && !body.username) {
    throw settingInvalid('username', 'required with auth_mode basic');
  }
  if (authMode === 'basic' && body.username?.includes(':')) {
    throw settingInvalid('username', 'must not contain a colon (HTTP basic)');
  }
  if (authMode === 'client_certificate' && body.client_certificate_pem === undefined) {
    throw settingInvalid('client_certificate_pem', 'required with auth_mode client_certificate');
  }
  if (authMode === 'basic' && body.client_certificate_pem !== undefined) {
    throw settingInvalid('client_certificate_pem', 'only with auth_mode client_certificate');
  }
  const trustAnchor =
    body.trust_anchor_pem === undefined
      ? null
      : pemCertificates('trust_anchor_pem', body.trust_anchor_pem);
  const clientCertificate =
    body.client_certificate_pem === undefined
      ? null
      : pemCertificates('client_certificate_pem', body.client_certificate_pem);
  const settings: EstProfileSettings = {
    url,
    label: body.label ?? null,
    auth_mode: authMode,
    username: authMode === 'basic' ? (body.username ?? null) : null,
    trust_anchor_pem: trustAnchor,
    client_certificate_pem: clientCertificate,
  };
  return {
    profile: { kind: 'est', settings },
    secrets: definedSecrets({ password: body.password, client_key_pem: body.client_key_pem }),
  };
}

/** EST is https only (RFC 7030); SCEP may be plain http where CERTSVC_ISSUER_EGRESS_ALLOW_HTTP. */
function validUrl(
  raw: string | undefined,
  checkUrl: (url: string) => EgressUrlCheck,
  kind: 'est' | 'scep',
): string {
  if (raw === undefined || raw.length === 0) {
    throw new IssuerProfilesError('issuer_url_invalid', { problem: 'url is required' });
  }
  const checked = checkUrl(raw);
  if (!checked.ok) {
    throw new IssuerProfilesError('issuer_url_invalid', {
      reason: checked.reason,
      problem: checked.message,
    });
  }
  if (kind === 'est' && checked.url.protocol !== 'https:') {
    throw new IssuerProfilesError('issuer_url_invalid', { problem: 'EST needs an https URL' });
  }
  if (checked.url.search !== '' || checked.url.hash !== '') {
    throw new IssuerProfilesError('issuer_url_invalid', {
      problem: 'a URL without query or fragment',
    });
  }
  return checked.url.href;
}

/** One or more PEM certificates, normalised; anything else is refused. */
function pemCertificates(field: string, text: string): string {
  let ders: Buffer[];
  try {
    ders = certificatesFromPem(text);
    for (const der of ders) new X509Certificate(der);
  } catch {
    throw settingInvalid(field, 'PEM certificates (-----BEGIN CERTIFICATE-----)');
  }
  if (ders.length === 0 || ders.length > 16) {
    throw settingInvalid(field, 'one to 16 PEM certificates');
  }
  return ders.map((der) => new X509Certificate(der).toString()).join('');
}

function definedSecrets(secrets: ProfileSecrets): ProfileSecrets {
  return Object.fromEntries(
    Object.entries(secrets).filter(([, value]) => value !== undefined),
  ) as ProfileSecrets;
}

/** With the stored secrets merged in: every secret the profile needs is there and usable. */
export function checkSecrets(profile: ProfileSettings, secrets: ProfileSecrets): void {
  if (profile.kind !== 'est') return;
  const { settings } = profile;
  if (settings.auth_mode === 'basic' && !secrets.password) {
    throw new IssuerProfilesError('issuer_secret_missing', { field: 'password' });
  }
  if (settings.auth_mode === 'client_certificate') {
    if (!secrets.client_key_pem) {
      throw new IssuerProfilesError('issuer_secret_missing', { field: 'client_key_pem' });
    }
    const certPem = settings.client_certificate_pem ?? '';
    let matches = false;
    try {
      const key = createPrivateKey(secrets.client_key_pem);
      matches = new X509Certificate(certificatesFromPem(certPem)[0]).checkPrivateKey(key);
    } catch {
      throw settingInvalid('client_key_pem', 'a PEM private key');
    }
    if (!matches) throw settingInvalid('client_key_pem', 'does not match client_certificate_pem');
  }
}
