import {
  asArray,
  asNumber,
  asPositiveInt,
  asRecord,
  asString,
  bounded,
  JsonRecord,
  pick,
} from './json-value';
import { FileLocation, FindingLocation, NetworkLocation } from './normalized-finding';
import { hasUriScheme, isWebAddress, normalizeFindingPath } from './finding-path';
import { optionalPort, optionalProtocol } from './json-shape';
import type { ResultWarningCode } from './result-warnings';
import { SarifBaseUri, SarifRunContext } from './sarif-run-context';

const MAX_SNIPPET = 4096;
const MAX_BASE_DEPTH = 8;

/** Property names read for network findings (result, then location properties). */
export const NETWORK_PROPERTY_KEYS = {
  host: ['host', 'hostname', 'hostName'],
  ip: ['ip', 'ipAddress', 'ip_address', 'address'],
  port: ['port'],
  protocol: ['protocol', 'transport'],
  service: ['service', 'serviceName', 'service_name'],
} as const;

export interface ResolvedLocation {
  location: FindingLocation;
  logical?: string;
}

function isAbsoluteFileUri(uri: string): boolean {
  return /^file:/i.test(uri);
}

/**
 * Resolves `uri` against `uriBaseId` through `originalUriBaseIds`. Relative bases are
 * prepended (recursively). A base that is an absolute `file:` URI is the checkout root: the
 * path stays relative to it, so the same file scanned in two workspaces has one identity.
 * A base that is an `http(s)` URI is joined (web findings). Unknown bases leave `uri` as is.
 */
export function resolveUri(
  ctx: SarifRunContext,
  location: SarifBaseUri,
  depth = 0,
): string | undefined {
  const uri = location.uri;
  if (uri === undefined || hasUriScheme(uri) || location.uriBaseId === undefined) return uri;
  const base = ctx.baseUris.get(location.uriBaseId);
  if (!base?.uri || depth >= MAX_BASE_DEPTH || isAbsoluteFileUri(base.uri)) return uri;
  const joined = `${base.uri.replace(/\/+$/, '')}/${uri.replace(/^\/+/, '')}`;
  if (hasUriScheme(base.uri)) return joined;
  return resolveUri(ctx, { uri: joined, uriBaseId: base.uriBaseId }, depth + 1);
}

const PATH_CACHE_LIMIT = 50_000;

/** Normalized, root-relative path; memoized per run (results share few files). */
export function toPath(ctx: SarifRunContext, uri: string): string {
  const cached = ctx.pathCache.get(uri);
  if (cached !== undefined) return cached;
  let path = normalizeFindingPath(uri);
  for (const root of ctx.checkoutRoots) {
    if (path.startsWith(`${root}/`)) {
      path = path.slice(root.length + 1);
      break;
    }
  }
  if (ctx.pathCache.size < PATH_CACHE_LIMIT) ctx.pathCache.set(uri, path);
  return path;
}

/** The URI of an `artifactLocation`: its own `uri`, else `run.artifacts[index]`'s; resolved. */
export function artifactUri(
  ctx: SarifRunContext,
  artifact: JsonRecord | undefined,
): string | undefined {
  if (!artifact) return undefined;
  const index = asNumber(artifact.index);
  const indexed = index === undefined ? undefined : ctx.artifacts[index];
  const own = { uri: asString(artifact.uri), uriBaseId: asString(artifact.uriBaseId) };
  return resolveUri(ctx, own.uri === undefined && indexed ? indexed : own);
}

function fileLocation(ctx: SarifRunContext, uri: string, physical: JsonRecord): FindingLocation {
  const region = asRecord(physical.region);
  const start = asPositiveInt(region?.startLine);
  const end = asPositiveInt(region?.endLine) ?? start;
  const snippet =
    rawText(asRecord(region?.snippet)?.text) ??
    rawText(asRecord(asRecord(physical.contextRegion)?.snippet)?.text);
  const location: FileLocation = { kind: 'file', path: toPath(ctx, uri) };
  if (start !== undefined) location.start_line = start;
  if (end !== undefined) location.end_line = Math.max(end, start ?? end);
  if (snippet !== undefined) location.snippet = bounded(snippet, MAX_SNIPPET);
  return location;
}

/** Snippet text as written (indentation kept), unless blank. */
function rawText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * A network location from property bags; a port that is not an integer 1-65535 or a protocol
 * that is not a string of at most 16 characters makes the result invalid.
 */
function networkFromProperties(
  bags: (JsonRecord | undefined)[],
): NetworkLocation | 'result_network_invalid' | undefined {
  const get = (keys: readonly string[]): unknown => {
    for (const bag of bags) {
      const value = pick(bag, keys);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const ip = asString(get(NETWORK_PROPERTY_KEYS.ip));
  const host = asString(get(NETWORK_PROPERTY_KEYS.host)) ?? ip;
  if (host === undefined) return undefined;
  const rawPort = get(NETWORK_PROPERTY_KEYS.port);
  const rawProtocol = get(NETWORK_PROPERTY_KEYS.protocol);
  if (!optionalPort(rawPort) || !optionalProtocol(rawProtocol)) return 'result_network_invalid';
  const port = asPositiveInt(rawPort);
  const protocol = asString(rawProtocol)?.toLowerCase();
  const service = asString(get(NETWORK_PROPERTY_KEYS.service));
  const location: NetworkLocation = { kind: 'network', host };
  if (port !== undefined) location.port = port;
  if (protocol !== undefined) location.protocol = protocol;
  if (ip !== undefined) location.ip = ip;
  if (service !== undefined) location.service = service;
  return location;
}

/** `tcp://host:port` / `udp://host:port` artifact URIs (a port outside 1-65535: invalid). */
function networkFromUri(uri: string): NetworkLocation | 'result_network_invalid' | undefined {
  const match = /^(tcp|udp):\/\/([^/:]+|\[[^\]]+\])(?::(\d+))?/i.exec(uri);
  if (!match) return undefined;
  if (!optionalPort(match[3])) return 'result_network_invalid';
  const port = asPositiveInt(match[3]);
  return {
    kind: 'network',
    host: match[2],
    protocol: match[1].toLowerCase(),
    ...(port === undefined ? {} : { port }),
  };
}

function logicalName(location: JsonRecord | undefined): string | undefined {
  for (const logical of asArray(location?.logicalLocations)) {
    const record = asRecord(logical);
    const name = asString(record?.fullyQualifiedName) ?? asString(record?.name);
    if (name !== undefined) return name;
  }
  return undefined;
}

/**
 * Location of a result, first match wins:
 * 1. physical artifact URI starting with http(s):// → web;
 * 2. `webRequest.target` absolute http(s) → web;
 * 3. network properties (NETWORK_PROPERTY_KEYS in result, then location properties) → network
 *    (a host that is itself an http(s) address → web);
 * 4. `tcp://` / `udp://` artifact URI → network;
 * 5. other physical artifact → file with region lines and snippet;
 * 6. logical location only → file whose path is the fully qualified logical name;
 * 7. nothing → file with an empty path.
 *
 * The result passed `sarifResultProblem`; the network members it reads (the port of
 * properties or of a `tcp://` / `udp://` URI, the protocol) are checked here.
 */
export function resolveLocation(
  result: JsonRecord,
  ctx: SarifRunContext,
): ResolvedLocation | ResultWarningCode {
  const first = asRecord(asArray(result.locations)[0]);
  const physical = asRecord(first?.physicalLocation);
  const uri = artifactUri(ctx, asRecord(physical?.artifactLocation));
  const logical = logicalName(first);
  const withLogical = (location: FindingLocation): ResolvedLocation =>
    logical === undefined ? { location } : { location, logical };
  if (uri !== undefined && isWebAddress(uri)) return withLogical({ kind: 'web', url: uri });
  const target = asString(asRecord(result.webRequest)?.target);
  if (target !== undefined && isWebAddress(target))
    return withLogical({ kind: 'web', url: target });
  const network = networkFromProperties([asRecord(result.properties), asRecord(first?.properties)]);
  if (network === 'result_network_invalid') return network;
  if (network) {
    return withLogical(isWebAddress(network.host) ? { kind: 'web', url: network.host } : network);
  }
  const fromUri = uri === undefined ? undefined : networkFromUri(uri);
  if (fromUri === 'result_network_invalid') return fromUri;
  if (fromUri) return withLogical(fromUri);
  if (uri !== undefined && physical) return withLogical(fileLocation(ctx, uri, physical));
  return withLogical({ kind: 'file', path: logical ?? '' });
}
