import { asArray, asPositiveInt, asRecord, asString, bounded, JsonRecord } from './json-value';
import type {
  CodeFlow,
  CodeFlowStep,
  FlowLocation,
  RelatedLocation,
  ThreadFlow,
} from './normalized-finding';
import { isWebAddress } from './finding-path';
import { artifactUri, toPath } from './sarif-location';
import { messageText } from './sarif-message';
import type { SarifRule, SarifRunContext } from './sarif-run-context';

/** At most this many related locations are kept per finding (the first ones). */
export const MAX_RELATED_LOCATIONS = 50;
/** At most this many code flows are kept per finding (the first ones). */
export const MAX_CODE_FLOWS = 10;
/** At most this many steps are kept per code flow, over all its thread flows (the first ones). */
export const MAX_FLOW_STEPS = 100;
/** Messages of related locations and flow steps are cut to this many characters. */
export const MAX_FLOW_MESSAGE = 1000;
const MAX_FLOW_PATH = 2048;

/**
 * Where a SARIF `location` (§3.28) points: its physical artifact (a file path normalized as the
 * finding's, or a web address) with region lines, its first logical location, its message.
 * Undefined when it says none of these.
 */
function flowLocation(
  value: unknown,
  rule: SarifRule | undefined,
  ctx: SarifRunContext,
): FlowLocation | undefined {
  const location = asRecord(value);
  if (!location) return undefined;
  const out: FlowLocation = {};
  const physical = asRecord(location.physicalLocation);
  const uri = artifactUri(ctx, asRecord(physical?.artifactLocation));
  if (uri !== undefined) {
    if (isWebAddress(uri)) out.url = bounded(uri, MAX_FLOW_PATH);
    else out.path = bounded(toPath(ctx, uri), MAX_FLOW_PATH);
    const region = asRecord(physical?.region);
    const start = asPositiveInt(region?.startLine);
    const end = asPositiveInt(region?.endLine);
    if (start !== undefined) out.start_line = start;
    if (start !== undefined && end !== undefined && end > start) out.end_line = end;
  }
  for (const entry of asArray(location.logicalLocations)) {
    const logical = asRecord(entry);
    const name = asString(logical?.fullyQualifiedName) ?? asString(logical?.name);
    if (name !== undefined) {
      out.logical = bounded(name, MAX_FLOW_PATH);
      break;
    }
  }
  const message = messageText(location.message, rule, ctx);
  if (message !== undefined) out.message = bounded(message, MAX_FLOW_MESSAGE);
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A result's `relatedLocations` (§3.27.22), the first MAX_RELATED_LOCATIONS that say where
 * they are, each with its `id` (a non-negative integer; the target of `[text](id)` links in
 * the result's message). Malformed entries are left out.
 */
export function sarifRelatedLocations(
  value: unknown,
  rule: SarifRule | undefined,
  ctx: SarifRunContext,
): RelatedLocation[] {
  const out: RelatedLocation[] = [];
  for (const entry of asArray(value)) {
    if (out.length >= MAX_RELATED_LOCATIONS) break;
    const location = flowLocation(entry, rule, ctx);
    if (!location) continue;
    const id = (entry as JsonRecord).id;
    out.push(
      Number.isInteger(id) && (id as number) >= 0 ? { id: id as number, ...location } : location,
    );
  }
  return out;
}

/**
 * A result's `codeFlows` (§3.36): the first MAX_CODE_FLOWS flows that have a step, each with
 * its thread flows (§3.37) in order and their `locations` (§3.38 threadFlowLocation) as steps
 * numbered from 1 within their thread flow; at most MAX_FLOW_STEPS steps per code flow.
 * A threadFlowLocation that refers to `run.threadFlowLocations` by `index` only is left out.
 */
export function sarifCodeFlows(
  value: unknown,
  rule: SarifRule | undefined,
  ctx: SarifRunContext,
): CodeFlow[] {
  const flows: CodeFlow[] = [];
  for (const entry of asArray(value)) {
    if (flows.length >= MAX_CODE_FLOWS) break;
    const flow = asRecord(entry);
    if (!flow) continue;
    let budget = MAX_FLOW_STEPS;
    const threads: ThreadFlow[] = [];
    for (const threadEntry of asArray(flow.threadFlows)) {
      if (budget <= 0) break;
      const thread = asRecord(threadEntry);
      if (!thread) continue;
      const steps: CodeFlowStep[] = [];
      for (const stepEntry of asArray(thread.locations)) {
        if (budget <= 0) break;
        const location = flowLocation(asRecord(stepEntry)?.location, rule, ctx);
        if (!location) continue;
        steps.push({ step: steps.length + 1, ...location });
        budget -= 1;
      }
      if (steps.length === 0) continue;
      const message = messageText(thread.message, rule, ctx);
      threads.push(
        message === undefined ? { steps } : { message: bounded(message, MAX_FLOW_MESSAGE), steps },
      );
    }
    if (threads.length === 0) continue;
    const message = messageText(flow.message, rule, ctx);
    flows.push(
      message === undefined
        ? { thread_flows: threads }
        : { message: bounded(message, MAX_FLOW_MESSAGE), thread_flows: threads },
    );
  }
  return flows;
}
