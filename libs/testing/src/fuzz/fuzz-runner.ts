import http from 'node:http';
import { DatabaseDigest, type DigestSnapshot } from './database-digest';
import { FuzzRandom } from './fuzz-random';
import type { FuzzSettings } from './fuzz-settings';
import { planFuzzCases, type FuzzCase, type RoleAssignment } from './fuzz-plan';
import { sendFuzzRequest, type FuzzResponse } from './http-exchange';
import type { FuzzOperation } from './openapi-operations';
import { renderRequest, setHeader, type FuzzRequest } from './request-draft';
import { validDraft, type ValidRequest } from './valid-request';
import type { EnvelopeCheck } from './error-envelope';

export type FailureKind = 'server-error' | 'envelope' | 'stored-change' | 'transport';

export interface FuzzFailure {
  kind: FailureKind;
  route: string;
  role: string;
  variant: string;
  method: string;
  path: string;
  status: number;
  requestId: string;
  requestBody: string;
  responseBody: string;
  detail: string;
}

export interface RouteCoverage {
  route: string;
  sent: number;
  /** Answers other than 401/403/404/405: the request got past authentication and lookup. */
  reached: number;
}

export interface FuzzResult {
  service: string;
  settings: FuzzSettings;
  requests: number;
  seconds: number;
  /** Seconds spent sending requests, taking digests and replacing consumed objects. */
  timings: { requests: number; digests: number; fixtures: number };
  statuses: Record<string, number>;
  /** The slowest cases (request time only), slowest first. */
  slowest: { route: string; variant: string; ms: number }[];
  routes: RouteCoverage[];
  failures: FuzzFailure[];
}

export interface FuzzTarget {
  service: string;
  baseUrl: string;
  settings: FuzzSettings;
  operations: FuzzOperation[];
  roles: (op: FuzzOperation) => RoleAssignment;
  /** Current headers of a role (`{}` for the anonymous one). */
  credentials: (role: string) => Record<string, string>;
  /**
   * Real ids and bodies that make the operation's valid request succeed or get deep. Set
   * `prepared` when making it stored something (a one-use nonce, say): the digest is retaken.
   */
  valid: (op: FuzzOperation) => ValidRequest | Promise<ValidRequest>;
  /**
   * Last touch on the rendered request before it is sent: a route authenticated by a signature
   * over the exact bytes (scanner callbacks) gets it computed here, so hostile bodies reach the
   * code behind the signature check. Variants that changed the signature headers keep them.
   */
  finalize?: (fuzzCase: FuzzCase, request: FuzzRequest) => void;
  /** Why an error answer is not in the service's envelope (undefined when it is). */
  envelopeProblem: EnvelopeCheck;
  digest: DatabaseDigest;
  /** After a 2xx/3xx: replace objects the request consumed (deleted, revoked, ...). */
  afterSuccess?: (
    fuzzCase: FuzzCase,
    response: FuzzResponse,
    request: FuzzRequest,
  ) => Promise<void>;
  secondarySample?: number;
  onProgress?: (done: number, total: number) => void;
}

const UNREACHED = new Set([401, 403, 404, 405]);
const SNIPPET = 240;
const SLOWEST = 5;

export function snippet(bytes: Buffer | string | undefined, max = SNIPPET): string {
  if (bytes === undefined) return '';
  const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
  const shown = JSON.stringify(text.length > max ? text.slice(0, max) : text).slice(1, -1);
  return text.length > max ? `${shown}... (${text.length} bytes)` : shown;
}

function failureOf(
  kind: FailureKind,
  fuzzCase: FuzzCase,
  request: FuzzRequest,
  response: FuzzResponse,
  requestId: string,
  detail: string,
): FuzzFailure {
  return {
    kind,
    route: fuzzCase.operation.key,
    role: fuzzCase.role,
    variant: fuzzCase.variant,
    method: request.method,
    path: snippet(request.path, 160),
    status: response.status,
    requestId,
    requestBody: snippet(request.body),
    responseBody: snippet(response.body),
    detail,
  };
}

/**
 * Sends the planned cases one at a time and checks each answer: no status >= 500, errors in
 * the service's envelope, and no stored change after a refused (4xx) request.
 */
export async function runFuzz(target: FuzzTarget): Promise<FuzzResult> {
  const { settings } = target;
  const plan = planFuzzCases(target.operations, {
    settings,
    random: new FuzzRandom(settings.seed),
    roles: target.roles,
    secondarySample: target.secondarySample,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const statuses: Record<string, number> = {};
  const coverage = new Map<string, RouteCoverage>(
    plan.operations.map((op) => [op.key, { route: op.key, sent: 0, reached: 0 }]),
  );
  const failures: FuzzFailure[] = [];
  const slowest: FuzzResult['slowest'] = [];
  const started = Date.now();
  const timings = { requests: 0, digests: 0, fixtures: 0 };
  const timed = async <T>(kind: keyof typeof timings, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      timings[kind] += (performance.now() - t0) / 1000;
    }
  };
  const snapshot = () => timed('digests', () => target.digest.snapshot());
  let baseline: DigestSnapshot = await snapshot();
  try {
    for (const [index, fuzzCase] of plan.cases.entries()) {
      const op = fuzzCase.operation;
      const valid = await timed('fixtures', async () => target.valid(op));
      if (valid.prepared) baseline = await snapshot();
      const draft = validDraft(op, valid, target.credentials(fuzzCase.role));
      const requestId = `fuzz-${settings.seed}-${index}`;
      setHeader(draft, 'x-request-id', requestId);
      fuzzCase.apply(draft);
      const request = renderRequest(op, draft);
      target.finalize?.(fuzzCase, request);
      const sentAt = performance.now();
      const response = await timed('requests', () =>
        sendFuzzRequest(target.baseUrl, request, { agent }),
      );
      slowest.push({ route: op.key, variant: fuzzCase.variant, ms: performance.now() - sentAt });
      slowest.sort((a, b) => b.ms - a.ms).splice(SLOWEST);
      const fail = (kind: FailureKind, detail: string) =>
        failures.push(failureOf(kind, fuzzCase, request, response, requestId, detail));
      const statusKey = response.transportError ? 'no answer' : String(response.status);
      statuses[statusKey] = (statuses[statusKey] ?? 0) + 1;
      const route = coverage.get(op.key);
      if (route) {
        route.sent++;
        if (!UNREACHED.has(response.status) && response.status > 0) route.reached++;
      }
      if (response.transportError) fail('transport', response.transportError);
      else if (response.status >= 500) fail('server-error', `status ${response.status}`);
      if (response.status >= 400 && request.method !== 'HEAD') {
        const problem = target.envelopeProblem(response.status, response.body);
        if (problem) fail('envelope', problem);
      }
      if (response.status >= 200 && response.status < 400) {
        // A success may store: the new state is the baseline of the next refusal.
        await timed('fixtures', async () => target.afterSuccess?.(fuzzCase, response, request));
        baseline = await snapshot();
      } else {
        const after = await snapshot();
        const changed = DatabaseDigest.changed(baseline, after);
        if (changed.length > 0) fail('stored-change', `changed: ${changed.join(', ')}`);
        baseline = after;
      }
      target.onProgress?.(index + 1, plan.cases.length);
    }
  } finally {
    agent.destroy();
  }
  return {
    service: target.service,
    settings,
    requests: plan.cases.length,
    seconds: (Date.now() - started) / 1000,
    timings,
    slowest,
    statuses,
    routes: [...coverage.values()],
    failures,
  };
}
