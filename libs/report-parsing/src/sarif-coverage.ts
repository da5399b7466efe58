import { asArray, asRecord, asString, JsonRecord } from './json-value';
import { CoverageCollector, coverageHost } from './run-coverage';
import { artifactUri, resolveUri, toPath } from './sarif-location';
import { SarifRunContext } from './sarif-run-context';

/** An artifact URI as coverage: a host for web/network addresses, else a finding path. */
function cover(ctx: SarifRunContext, uri: string, coverage: CoverageCollector, failed: boolean) {
  const host = coverageHost(uri);
  if (host !== undefined) {
    if (!failed) coverage.host(host);
    return;
  }
  if (/^(?:https?|tcp|udp):/i.test(uri.trim())) return;
  const path = toPath(ctx, uri);
  if (failed) coverage.failedFile(path);
  else coverage.file(path);
}

/** Error-level `toolExecutionNotifications` of an invocation: the files the tool failed on. */
function failedLocations(
  ctx: SarifRunContext,
  invocation: JsonRecord,
  coverage: CoverageCollector,
) {
  for (const entry of asArray(invocation.toolExecutionNotifications)) {
    const notification = asRecord(entry);
    if (asString(notification?.level) !== 'error') continue;
    for (const location of asArray(notification?.locations)) {
      const physical = asRecord(asRecord(location)?.physicalLocation);
      const uri = artifactUri(ctx, asRecord(physical?.artifactLocation));
      if (uri !== undefined) cover(ctx, uri, coverage, true);
    }
  }
}

/**
 * Sets `ctx.coverage` from the run's metadata (pass 1; `members` are its non-`results` members,
 * already type-checked by buildRunContext): `artifacts[].location` → files (resolved and
 * normalized as finding paths) or hosts (`http(s)://`, `tcp://`, `udp://`); an invocation with
 * `executionSuccessful: false` → incomplete; the locations of error-level tool execution
 * notifications → failed files.
 */
export function addRunCoverage(ctx: SarifRunContext, members: JsonRecord): void {
  const coverage = new CoverageCollector();
  for (const entry of asArray(members.artifacts)) {
    const location = asRecord(asRecord(entry)?.location);
    const uri = resolveUri(ctx, {
      uri: asString(location?.uri),
      uriBaseId: asString(location?.uriBaseId),
    });
    if (uri !== undefined) cover(ctx, uri, coverage, false);
  }
  for (const entry of asArray(members.invocations)) {
    const invocation = asRecord(entry);
    if (!invocation) continue;
    if (invocation.executionSuccessful === false) coverage.markIncomplete();
    failedLocations(ctx, invocation, coverage);
  }
  ctx.coverage = coverage.result();
}
