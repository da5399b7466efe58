import { Oids } from '../der/oids';
import { KeyUsageBit } from './key-usage';
import { Lifetime } from './lifetime';

/** Purposes issued as X.509 certificates. `k8s` (10 min) will be one more row; `ssh` is not X.509. */
export type X509Purpose = 'wifi' | 'user_mtls' | 'ad_logon' | 'vpn';

export interface PurposeProfile {
  readonly purpose: X509Purpose;
  readonly extendedKeyUsages: readonly string[];
  /** KeyUsage bits by subject key algorithm. */
  readonly keyUsage: { readonly rsa: readonly KeyUsageBit[]; readonly ec: readonly KeyUsageBit[] };
  readonly defaultLifetime: Lifetime;
  /** Only `wifi` may be configured on the server (spec "Certificate lifetimes"). */
  readonly lifetimeConfigurable: boolean;
  /** `ad_logon` needs the UPN otherName SAN to map the certificate to an AD account. */
  readonly requiresUpn: boolean;
}

const SIGNING_RSA: readonly KeyUsageBit[] = ['digitalSignature', 'keyEncipherment'];
const SIGNING_EC: readonly KeyUsageBit[] = ['digitalSignature'];

/**
 * The purpose table. `vpn`: clientAuth plus IKE intermediate (RFC 4945 usage accepted by
 * strongSwan and Windows IKEv2); 1 year like the other user/device credentials, because
 * the spec fixes no lifetime for it and only `wifi` is configurable.
 * `ad_logon` with EC keys also carries keyAgreement (PKINIT with ECDH, RFC 5349).
 */
export const PURPOSE_PROFILES: Readonly<Record<X509Purpose, PurposeProfile>> = {
  wifi: {
    purpose: 'wifi',
    extendedKeyUsages: [Oids.ekuClientAuth],
    keyUsage: { rsa: SIGNING_RSA, ec: SIGNING_EC },
    defaultLifetime: { unit: 'years', amount: 3 },
    lifetimeConfigurable: true,
    requiresUpn: false,
  },
  user_mtls: {
    purpose: 'user_mtls',
    extendedKeyUsages: [Oids.ekuClientAuth],
    keyUsage: { rsa: SIGNING_RSA, ec: SIGNING_EC },
    defaultLifetime: { unit: 'years', amount: 1 },
    lifetimeConfigurable: false,
    requiresUpn: false,
  },
  ad_logon: {
    purpose: 'ad_logon',
    extendedKeyUsages: [Oids.ekuClientAuth, Oids.ekuSmartCardLogon],
    keyUsage: { rsa: SIGNING_RSA, ec: ['digitalSignature', 'keyAgreement'] },
    defaultLifetime: { unit: 'years', amount: 1 },
    lifetimeConfigurable: false,
    requiresUpn: true,
  },
  vpn: {
    purpose: 'vpn',
    extendedKeyUsages: [Oids.ekuClientAuth, Oids.ekuIkeIntermediate],
    keyUsage: { rsa: SIGNING_RSA, ec: SIGNING_EC },
    defaultLifetime: { unit: 'years', amount: 1 },
    lifetimeConfigurable: false,
    requiresUpn: false,
  },
};

export const X509_PURPOSES = Object.keys(PURPOSE_PROFILES) as X509Purpose[];

export function isX509Purpose(value: string): value is X509Purpose {
  return Object.prototype.hasOwnProperty.call(PURPOSE_PROFILES, value);
}
