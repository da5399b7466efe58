import type { EnvReader } from '@platform/config';
import { readEgressPolicy, type EgressPolicy } from '@platform/egress';

/** `POST /api/v1/enroll/identity-sid` (docs/certificate-service/identity-sid.md). */
export interface CertsvcIdentitySidConfig {
  /**
   * `CERTSVC_IDENTITY_SID_RATE_LIMIT_PER_HOUR` (30): look-ups per device per hour, one budget
   * for all replicas (shared Redis counters), on top of the enroll limit per address.
   */
  perDevicePerHour: number;
  /**
   * `CERTSVC_IDENTITY_DIRECTORY_EGRESS_*` (docs/egress.md): the guard of every connection to
   * the LDAP directory. A directory inside the network needs `..._ALLOW_LOCAL_DIAL=true`
   * (best with `..._ALLOWLIST` naming its range). `ALLOW_HTTP`, body caps and redirects do not
   * apply to LDAP.
   */
  egress: EgressPolicy;
}

export function readIdentitySidConfig(r: EnvReader): CertsvcIdentitySidConfig {
  return {
    perDevicePerHour: r.int('CERTSVC_IDENTITY_SID_RATE_LIMIT_PER_HOUR', 30, {
      min: 1,
      max: 100_000,
    }),
    egress: readEgressPolicy(r, 'CERTSVC_IDENTITY_DIRECTORY_EGRESS'),
  };
}
