import { createHash } from 'node:crypto';
import type { EnvReader } from '@platform/config';
import { readEgressPolicy, type EgressPolicy } from '@platform/egress';
import { parseKeyEncryptionKey } from '@platform/pki';

export const ISSUER_KINDS = ['built_in', 'scep', 'est'] as const;
export type IssuerKind = (typeof ISSUER_KINDS)[number];

/** Issuer profiles per purpose (docs/certificate-service/issuers.md). */
export interface CertsvcIssuerConfig {
  /**
   * `CERTSVC_ISSUER` (`built_in`): the kind of a purpose without a stored profile. `scep` or
   * `est` without a profile cannot issue: approvals of that purpose fail with
   * `issuer_not_configured` and `GET /api/v1/issuer` reports `configured: false`.
   */
  defaultKind: IssuerKind;
  /**
   * `CERTSVC_SCEP_ENC_KEY` (32 bytes, hex or base64): seals issuer-profile secrets (SCEP
   * challenge password and requester key, EST password and client key) with AES-256-GCM;
   * never logged. Undefined (not set outside dev mode): a profile with secrets cannot be saved.
   */
  secretKey: Buffer | undefined;
  /** True when dev mode derived the key (no `CERTSVC_SCEP_ENC_KEY`). */
  secretKeyDerived: boolean;
  /**
   * `CERTSVC_ISSUER_RELOAD_SECONDS` (10): at most how often each process (API replicas,
   * worker) compares, before it uses an issuer, the stored profiles with the ones it built its
   * issuers from.
   */
  reloadSeconds: number;
  /**
   * `CERTSVC_ISSUER_EGRESS_*` (docs/egress.md): the guard of every call to a SCEP or EST
   * server. Redirects are not followed (`MAX_REDIRECTS` 0 unless set).
   */
  egress: EgressPolicy;
}

export function readIssuerConfig(r: EnvReader, devMode: boolean): CertsvcIssuerConfig {
  const key = secretKey(r, devMode);
  const policy = readEgressPolicy(r, 'CERTSVC_ISSUER_EGRESS');
  return {
    defaultKind: r.oneOf('CERTSVC_ISSUER', ISSUER_KINDS, 'built_in'),
    secretKey: key?.key,
    secretKeyDerived: key?.derived ?? false,
    reloadSeconds: r.int('CERTSVC_ISSUER_RELOAD_SECONDS', 10, { min: 1, max: 3600 }),
    egress: {
      ...policy,
      maxRedirects:
        r.raw('CERTSVC_ISSUER_EGRESS_MAX_REDIRECTS') === undefined ? 0 : policy.maxRedirects,
    },
  };
}

function secretKey(r: EnvReader, devMode: boolean): { key: Buffer; derived: boolean } | undefined {
  const configured = r.optionalString('CERTSVC_SCEP_ENC_KEY');
  if (configured === undefined) {
    if (!devMode) return undefined;
    return {
      key: createHash('sha256').update('certsvc dev-mode issuer profile secret key v1').digest(),
      derived: true,
    };
  }
  try {
    return { key: parseKeyEncryptionKey(configured), derived: false };
  } catch {
    r.problem('CERTSVC_SCEP_ENC_KEY must be 32 bytes, hex or base64');
    return undefined;
  }
}
