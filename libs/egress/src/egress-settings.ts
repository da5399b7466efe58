import type { EnvReader } from '@platform/config';
import { DEFAULT_EGRESS_POLICY, type EgressPolicy } from './egress-policy';
import { parseCidr, type IpRange } from './ip-address';

/**
 * Reads one guard's policy from `<prefix>_ALLOW_HTTP`, `_ALLOW_LOCAL_DIAL`, `_ALLOWLIST`,
 * `_TIMEOUT_MS`, `_MAX_REQUEST_BYTES`, `_MAX_RESPONSE_BYTES`, `_MAX_REDIRECTS` (docs/egress.md);
 * problems go to the reader, so the process stops at boot naming each of them. The runner reads
 * `PLUGIN_EGRESS`, the findings service `OUTBOUND`.
 */
export function readEgressPolicy(read: EnvReader, prefix: string): EgressPolicy {
  const allowlist: IpRange[] = [];
  for (const entry of read.list(`${prefix}_ALLOWLIST`)) {
    const range = parseCidr(entry);
    if ('error' in range) read.problem(`${prefix}_ALLOWLIST: ${range.error}`);
    else allowlist.push(range);
  }
  const d = DEFAULT_EGRESS_POLICY;
  return {
    allowHttp: read.bool(`${prefix}_ALLOW_HTTP`, d.allowHttp),
    allowLocalDial: read.bool(`${prefix}_ALLOW_LOCAL_DIAL`, d.allowLocalDial),
    allowlist,
    timeoutMs: read.int(`${prefix}_TIMEOUT_MS`, d.timeoutMs, { min: 100, max: 300_000 }),
    maxRequestBytes: read.int(`${prefix}_MAX_REQUEST_BYTES`, d.maxRequestBytes, {
      min: 0,
      max: 64 * 1024 * 1024,
    }),
    maxResponseBytes: read.int(`${prefix}_MAX_RESPONSE_BYTES`, d.maxResponseBytes, {
      min: 1024,
      max: 256 * 1024 * 1024,
    }),
    maxRedirects: read.int(`${prefix}_MAX_REDIRECTS`, d.maxRedirects, { min: 0, max: 20 }),
  };
}
