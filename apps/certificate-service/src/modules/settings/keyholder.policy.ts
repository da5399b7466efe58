import { BlockList, isIP } from 'node:net';

/**
 * Requirement step of the key-holder server token (`X-Keyholder-Token`):
 * - `off`: no token needed; a valid token still limits the logins it may read;
 * - `observe`: a request without a valid token is counted
 *   (`certsvc_keyholder_requests_without_token_total`) and answered;
 * - `required`: such a request is counted and refused with 401.
 */
export const KEYHOLDER_TOKEN_GATES = ['off', 'observe', 'required'] as const;
export type KeyholderTokenGate = (typeof KEYHOLDER_TOKEN_GATES)[number];

/** Default networks allowed to call the key-holder API: this host only. */
export const DEFAULT_KEYHOLDER_NETWORKS = ['127.0.0.0/8', '::1/128'];

export interface KeyholderPolicy {
  tokenGate: KeyholderTokenGate;
  /** CIDR blocks (or single addresses) target servers call from; empty refuses everyone. */
  allowedNetworks: string[];
}

export const DEFAULT_KEYHOLDER_POLICY: KeyholderPolicy = {
  tokenGate: 'off',
  allowedNetworks: DEFAULT_KEYHOLDER_NETWORKS,
};

/** `10.0.0.0/8`, `2001:db8::/32` or a single address; null when not one of those. */
export function parseNetwork(
  text: string,
): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const match = /^([0-9A-Fa-f:.]+)(?:\/(\d{1,3}))?$/.exec(text);
  if (!match) return null;
  const version = isIP(match[1]);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = match[2] === undefined ? max : Number(match[2]);
  if (prefix > max) return null;
  return { address: match[1], prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

export function isNetwork(text: string): boolean {
  return parseNetwork(text) !== null;
}

/** A matcher over the allowed networks (invalid entries never match anything). */
export function networkList(networks: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of networks) {
    const network = parseNetwork(entry);
    if (network) list.addSubnet(network.address, network.prefix, network.family);
  }
  return list;
}

export function keyholderPolicyFromJson(
  value: Record<string, unknown> | undefined,
): KeyholderPolicy {
  if (!value) return DEFAULT_KEYHOLDER_POLICY;
  // Unreadable values fall back to the strictest: token required, no network allowed.
  const tokenGate = KEYHOLDER_TOKEN_GATES.find((g) => g === value.token_gate) ?? 'required';
  const networks = Array.isArray(value.allowed_networks)
    ? value.allowed_networks.filter((n): n is string => typeof n === 'string' && isNetwork(n))
    : [];
  return { tokenGate, allowedNetworks: networks };
}

export function keyholderPolicyToJson(policy: KeyholderPolicy): Record<string, unknown> {
  return { token_gate: policy.tokenGate, allowed_networks: policy.allowedNetworks };
}
