// Test support: the egress policy under which tests reach loopback SCEP peers. The guard stays
// on; loopback is allowed the way an administrator allows a host (local dialling plus an
// allowlist of exactly 127.0.0.1/32), and plain http for the loopback peers.
import {
  DEFAULT_EGRESS_POLICY,
  parseCidr,
  type EgressPolicy,
  type IpRange,
} from '@platform/egress';

export function loopbackEgressPolicy(): EgressPolicy {
  const range = parseCidr('127.0.0.1/32') as IpRange;
  return { ...DEFAULT_EGRESS_POLICY, allowHttp: true, allowLocalDial: true, allowlist: [range] };
}
