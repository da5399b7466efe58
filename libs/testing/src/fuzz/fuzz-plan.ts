import type { FuzzRandom } from './fuzz-random';
import type { FuzzSettings } from './fuzz-settings';
import { operationCases, type CaseCategory, type CaseTemplate } from './operation-cases';
import type { FuzzOperation } from './openapi-operations';

export interface FuzzCase extends CaseTemplate {
  operation: FuzzOperation;
  role: string;
}

export interface RoleAssignment {
  /** Sends every case of the operation. */
  primary: string;
  /** Each sends a sample of the cases (`secondarySample` of them). */
  secondary: string[];
  /** Sends the bad-credential cases (no credentials of its own). */
  anonymous: string;
}

export interface PlanOptions {
  settings: FuzzSettings;
  random: FuzzRandom;
  roles: (op: FuzzOperation) => RoleAssignment;
  secondarySample?: number;
}

const COMBINABLE: CaseCategory[] = ['path', 'query', 'header', 'field'];
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Interleaves categories so the first cases of an operation span all of them. */
function stratified(cases: FuzzCase[], random: FuzzRandom): FuzzCase[] {
  const groups = new Map<string, FuzzCase[]>();
  for (const c of cases) {
    const key = `${c.role}/${c.category}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const queues = random.shuffle([...groups.values()].map((g) => random.shuffle(g)));
  const out: FuzzCase[] = [];
  while (queues.some((q) => q.length > 0)) {
    for (const q of queues) {
      const next = q.shift();
      if (next) out.push(next);
    }
  }
  return out;
}

function comboCase(op: FuzzOperation, role: string, parts: CaseTemplate[]): FuzzCase {
  return {
    operation: op,
    role,
    category: 'combo',
    variant: `combo ${parts.map((p) => p.variant).join(' + ')}`,
    apply: (draft) => parts.forEach((p) => p.apply(draft)),
  };
}

/** Every case for one operation, each with the role that sends it. */
function casesFor(op: FuzzOperation, options: PlanOptions, random: FuzzRandom): FuzzCase[] {
  const templates = operationCases(op);
  const roles = options.roles(op);
  const out: FuzzCase[] = [];
  for (const t of templates) {
    const role = t.category === 'auth' ? roles.anonymous : roles.primary;
    out.push({ ...t, operation: op, role });
  }
  const sample = options.secondarySample ?? 12;
  const structural = templates.filter((t) => t.category !== 'auth');
  for (const role of roles.secondary) {
    for (const t of random.shuffle(structural).slice(0, sample)) {
      out.push({ ...t, operation: op, role });
    }
  }
  return out;
}

function combosFor(op: FuzzOperation, role: string, count: number, random: FuzzRandom): FuzzCase[] {
  const parts = operationCases(op).filter((t) => COMBINABLE.includes(t.category));
  if (parts.length < 2) return [];
  return Array.from({ length: count }, () => {
    const size = 2 + random.int(2);
    return comboCase(
      op,
      role,
      Array.from({ length: size }, () => random.pick(parts)),
    );
  });
}

export interface FuzzPlan {
  cases: FuzzCase[];
  operations: FuzzOperation[];
}

/**
 * The cases of a run. Full size: every case of every operation, then random combinations of
 * several changes until `requests` is reached. Modest size: the valid case of each operation,
 * then round-robin over the operations (categories interleaved) until `requests`.
 */
export function planFuzzCases(operations: FuzzOperation[], options: PlanOptions): FuzzPlan {
  const ordered = [...operations].sort(
    (a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
  const perOp = ordered.map((op) => {
    const random = options.random.fork(op.key);
    const all = casesFor(op, options, random);
    const [valid, ...rest] = all;
    return valid ? [valid, ...stratified(rest, random)] : [];
  });
  const total = perOp.reduce((n, list) => n + list.length, 0);
  let chosen: FuzzCase[][];
  if (options.settings.size === 'full') {
    chosen = perOp.map((list) => [...list]);
    const missing = options.settings.requests - total;
    if (missing > 0) {
      const each = Math.ceil(missing / Math.max(1, ordered.length));
      ordered.forEach((op, i) => {
        const role = options.roles(op).primary;
        chosen[i]?.push(...combosFor(op, role, each, options.random.fork(`combo ${op.key}`)));
      });
    }
  } else {
    chosen = perOp.map(() => []);
    let budget = options.settings.requests;
    for (let round = 0; budget > 0; round++) {
      let added = 0;
      perOp.forEach((list, i) => {
        const next = list[round];
        if (next && budget > 0) {
          chosen[i]?.push(next);
          budget--;
          added++;
        }
      });
      if (added === 0) break;
    }
  }
  return { cases: chosen.flat(), operations: ordered };
}
