import type { EnvReader } from '@platform/config';
import { readEgressPolicy, type EgressPolicy } from '@platform/egress';

/**
 * The service's own outgoing calls to addresses an administrator entered (an IPAM's API, a
 * scanner's re-verification endpoint): the shared guard's policy from OUTBOUND_* (docs/egress.md,
 * docs/findings-service/configuration.md). Plugins' calls are the runner's (PLUGIN_EGRESS_*);
 * catalog downloads have their own PLUGIN_CATALOG_* settings.
 */
export type OutboundConfig = EgressPolicy;

/**
 * Reads OUTBOUND_*. With APP_ENV=production, OUTBOUND_ALLOW_LOCAL_DIAL is refused unless
 * OUTBOUND_ALLOWLIST names the ranges the calls may reach: a production service dials
 * internal addresses only where the operator said so.
 */
export function readOutboundConfig(r: EnvReader, production: boolean): OutboundConfig {
  const policy = readEgressPolicy(r, 'OUTBOUND');
  if (production && policy.allowLocalDial && policy.allowlist.length === 0) {
    r.problem(
      'OUTBOUND_ALLOW_LOCAL_DIAL with APP_ENV=production needs OUTBOUND_ALLOWLIST (the ranges outgoing calls may reach)',
    );
  }
  return policy;
}
