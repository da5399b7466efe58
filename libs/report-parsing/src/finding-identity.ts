import { hash } from 'node:crypto';
import { FindingLocation } from './normalized-finding';
import { isWebAddress, normalizeFindingPath, normalizeWebAddress } from './finding-path';

/** First element of every identity material; bump it when the material changes. */
export const IDENTITY_VERSION = 'finding-identity/v1';

export type IdentityKind = 'code' | 'web' | 'network_cve' | 'network';

/** What identity is computed from. Scanner and extended fields are deliberately absent. */
export interface IdentityInput {
  rule_id: string;
  location: FindingLocation;
  cve?: string;
  /**
   * Tells apart code findings of one rule and file that have no line (SonarQube issues without
   * a text range, e.g. one dependency-check issue per CVE): the vulnerability id, else the
   * issue key. Ignored when the finding has a start line.
   */
  discriminator?: string;
}

type Material = readonly [string, IdentityKind, ...(string | number | null)[]];

function webAddressOf(location: FindingLocation): string | undefined {
  switch (location.kind) {
    case 'web':
      return location.url;
    case 'network':
      return isWebAddress(location.host) ? location.host : undefined;
    case 'file':
      return isWebAddress(location.path) ? location.path : undefined;
  }
}

/**
 * The identity material (spec "Identity"), an array serialized as JSON so that no two
 * different inputs share an encoding:
 *
 * | kind        | material                                                         |
 * |-------------|------------------------------------------------------------------|
 * | code        | rule, normalized path, start line, end line (end = start if absent) |
 * |             | + the discriminator when there is no start line and one is given |
 * | web         | rule, address with scheme and host lower-cased                   |
 * | network_cve | upper-cased CVE, lower-cased host, port, protocol                |
 * | network     | lower-cased host, port, protocol (the rule is NOT included)      |
 *
 * The snippet is not part of code identity: it changes with formatting and every scanner
 * cuts it differently, while the line range is what "location in file" means. A missing
 * network protocol counts as `tcp` when a port is known (scanners that omit it mean TCP).
 */
export function identityMaterial(input: IdentityInput): Material {
  const { location } = input;
  const web = webAddressOf(location);
  if (web !== undefined || location.kind === 'web') {
    return [IDENTITY_VERSION, 'web', input.rule_id, normalizeWebAddress(web ?? '')];
  }
  if (location.kind === 'file') {
    const start = location.start_line ?? null;
    const end = location.end_line ?? start;
    const path = normalizeFindingPath(location.path);
    // A longer array than every v1 material: no stored identity can collide with it.
    if (start === null && input.discriminator !== undefined)
      return [IDENTITY_VERSION, 'code', input.rule_id, path, start, end, input.discriminator];
    return [IDENTITY_VERSION, 'code', input.rule_id, path, start, end];
  }
  const host = location.host.trim().toLowerCase();
  const port = location.port ?? null;
  const protocol = location.protocol?.trim().toLowerCase() ?? (port === null ? null : 'tcp');
  const cve = input.cve?.trim().toUpperCase();
  if (cve) return [IDENTITY_VERSION, 'network_cve', cve, host, port, protocol];
  return [IDENTITY_VERSION, 'network', host, port, protocol];
}

export function identityKind(input: IdentityInput): IdentityKind {
  return identityMaterial(input)[1];
}

/** Hex SHA-256 of the identity material. Product scoping is the DB key (product_id, hash). */
export function findingIdentity(input: IdentityInput): string {
  return hash('sha256', JSON.stringify(identityMaterial(input)), 'hex');
}
