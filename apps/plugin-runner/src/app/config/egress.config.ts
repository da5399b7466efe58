import type { EnvReader } from '@platform/config';
import { DEFAULT_EGRESS_POLICY, type EgressPolicy } from '../../egress/egress-policy';
import { parseCidr, type IpRange } from '@platform/plugin-protocol';

/** Reads the PLUGIN_EGRESS_* settings (docs/plugins/egress.md); problems go to the reader. */
export function readEgressPolicy(read: EnvReader): EgressPolicy {
  const allowlist: IpRange[] = [];
  for (const entry of read.list('PLUGIN_EGRESS_ALLOWLIST')) {
    const range = parseCidr(entry);
    if ('error' in range) read.problem(`PLUGIN_EGRESS_ALLOWLIST: ${range.error}`);
    else allowlist.push(range);
  }
  const d = DEFAULT_EGRESS_POLICY;
  return {
    allowHttp: read.bool('PLUGIN_EGRESS_ALLOW_HTTP', d.allowHttp),
    allowLocalDial: read.bool('PLUGIN_EGRESS_ALLOW_LOCAL_DIAL', d.allowLocalDial),
    allowlist,
    timeoutMs: read.int('PLUGIN_EGRESS_TIMEOUT_MS', d.timeoutMs, { min: 100, max: 300_000 }),
    maxRequestBytes: read.int('PLUGIN_EGRESS_MAX_REQUEST_BYTES', d.maxRequestBytes, {
      min: 0,
      max: 64 * 1024 * 1024,
    }),
    maxResponseBytes: read.int('PLUGIN_EGRESS_MAX_RESPONSE_BYTES', d.maxResponseBytes, {
      min: 1024,
      max: 256 * 1024 * 1024,
    }),
    maxRedirects: read.int('PLUGIN_EGRESS_MAX_REDIRECTS', d.maxRedirects, { min: 0, max: 20 }),
  };
}
