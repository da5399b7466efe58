import { FuzzRandom } from './fuzz-random';
import { planFuzzCases, type PlanOptions } from './fuzz-plan';
import { openApiOperations } from './openapi-operations';
import { operationCases } from './operation-cases';
import { TEST_DOCUMENT } from './test-document';

const ops = openApiOperations(TEST_DOCUMENT);
const options = (size: 'modest' | 'full', requests: number, seed = 7): PlanOptions => ({
  settings: { seed, size, requests },
  random: new FuzzRandom(seed),
  roles: (op) =>
    op.security.length === 0
      ? { primary: 'anon', secondary: ['admin'], anonymous: 'anon' }
      : { primary: 'admin', secondary: ['anon'], anonymous: 'anon' },
  secondarySample: 3,
});
const labels = (size: 'modest' | 'full', requests: number, seed?: number) =>
  planFuzzCases(ops, options(size, requests, seed)).cases.map(
    (c) => `${c.role} ${c.operation.key} ${c.variant}`,
  );

describe('planFuzzCases', () => {
  it('is deterministic for a seed', () => {
    expect(labels('modest', 60, 1)).toEqual(labels('modest', 60, 1));
    expect(labels('modest', 60, 1)).not.toEqual(labels('modest', 60, 2));
  });

  it('modest size: exactly the budget, every operation first with its valid case', () => {
    const { cases } = planFuzzCases(ops, options('modest', 30));
    expect(cases).toHaveLength(30);
    for (const op of ops) {
      const mine = cases.filter((c) => c.operation.key === op.key);
      expect(mine[0]?.variant).toBe('valid');
      expect(new Set(mine.map((c) => c.category)).size).toBeGreaterThan(4);
    }
  });

  it('full size: every case of every operation, then combinations up to the target', () => {
    const singles = ops.reduce((n, op) => n + operationCases(op).length, 0);
    const all = planFuzzCases(ops, options('full', 1));
    expect(all.cases.filter((c) => c.category !== 'combo').length).toBeGreaterThan(singles);
    expect(all.cases.some((c) => c.category === 'combo')).toBe(false);
    const topped = planFuzzCases(ops, options('full', all.cases.length + 300));
    expect(topped.cases.length).toBeGreaterThanOrEqual(all.cases.length + 300);
    expect(topped.cases.filter((c) => c.category === 'combo').length).toBeGreaterThanOrEqual(300);
  });

  it('sends bad credentials as the anonymous role, other cases as the primary or a sample', () => {
    const { cases } = planFuzzCases(ops, options('full', 1));
    expect(cases.filter((c) => c.category === 'auth').every((c) => c.role === 'anon')).toBe(true);
    const get = cases.filter((c) => c.operation.key === 'GET /items/{id}');
    expect(get.filter((c) => c.role === 'anon' && c.category !== 'auth')).toHaveLength(3);
    const put = cases.filter((c) => c.operation.key === 'PUT /items/{id}');
    expect(put.filter((c) => c.role === 'admin')).toHaveLength(3);
    expect(put.some((c) => c.category === 'auth')).toBe(false);
  });
});
