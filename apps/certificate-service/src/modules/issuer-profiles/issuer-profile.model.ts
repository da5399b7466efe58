import { X509_PURPOSES, type X509Purpose } from '@platform/pki';
import type { IssuerKind } from '../../app/config/issuer-config';

/** Non-secret settings of an EST profile (stored as JSON, returned by the settings routes). */
export interface EstProfileSettings {
  /** `https://host[:port][/prefix]`; `/.well-known/est[/label]/<operation>` is appended. */
  url: string;
  label: string | null;
  auth_mode: 'basic' | 'client_certificate';
  /** HTTP basic user (auth_mode `basic`). */
  username: string | null;
  /** PEM certificates the EST server's TLS certificate must chain to; null: system roots. */
  trust_anchor_pem: string | null;
  /** PEM of the service's client certificate (auth_mode `client_certificate`). */
  client_certificate_pem: string | null;
}

export interface EstProfileSecrets {
  password?: string;
  client_key_pem?: string;
}

/** Non-secret settings of a SCEP profile. */
export interface ScepProfileSettings {
  /** The SCEP endpoint, e.g. `https://ndes.example.com/certsrv/mscep/mscep.dll`. */
  url: string;
  /** SHA-256 (hex) of the CA certificate GetCACert must return. */
  ca_fingerprint: string;
  /** The service's self-signed requester certificate (generated at the first save). */
  requester_certificate_pem: string | null;
}

export interface ScepProfileSecrets {
  challenge_password?: string;
  /** Private key of the requester certificate (generated at the first save). */
  requester_key_pem?: string;
}

export type ProfileSettings =
  | { kind: 'built_in'; settings: Record<string, never> }
  | { kind: 'est'; settings: EstProfileSettings }
  | { kind: 'scep'; settings: ScepProfileSettings };

export type ProfileSecrets = EstProfileSecrets & ScepProfileSecrets;

/** Secret fields of each kind: accepted on PUT, sealed at rest, never returned. */
export const SECRET_FIELDS = {
  built_in: [],
  est: ['password', 'client_key_pem'],
  scep: ['challenge_password', 'requester_key_pem'],
} as const satisfies Record<IssuerKind, readonly (keyof ProfileSecrets)[]>;

/** A stored profile as the registry and the routes see it (secrets still sealed). */
export interface StoredProfile {
  purpose: X509Purpose;
  kind: IssuerKind;
  settings: Record<string, unknown>;
  sealedSecrets: string | null;
  updatedAt: Date;
  updatedBy: string;
}

export const PROFILE_PURPOSES: readonly X509Purpose[] = X509_PURPOSES;
