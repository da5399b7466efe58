import { DataSource } from 'typeorm';
import { planBulkTransition } from '../../src/modules/findings/lifecycle/finding-lifecycle';
import { statusChangeSql } from '../../src/modules/findings/lifecycle/status-change.sql';
import { bulkTargetSql, toBulkTarget } from '../../src/modules/findings/list/bulk-selection';
import { SqlParams } from '../../src/modules/findings/list/finding-selection.sql';
import { freshProduct, seedFindings, startWithProduct } from '../support/findings-seed';
import type { Login } from '../support/sessions';
import type { TestApp } from '../support/test-app';

/** A node of `EXPLAIN (FORMAT JSON)`. */
interface PlanNode {
  'Node Type': string;
  Operation?: string;
  'Relation Name'?: string;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

let t: TestApp;
let admin: Login;

beforeAll(async () => {
  ({ t, admin } = await startWithProduct());
});
afterAll(async () => {
  await t.close();
});

/** Every node under `node` that feeds it rows (its init plans and sub plans left out). */
function rowSources(node: PlanNode): PlanNode[] {
  return (node.Plans ?? [])
    .filter(
      (p) => p['Parent Relationship'] !== 'InitPlan' && p['Parent Relationship'] !== 'SubPlan',
    )
    .flatMap((p) => [p, ...rowSources(p)]);
}

function find(node: PlanNode, match: (n: PlanNode) => boolean): PlanNode | undefined {
  if (match(node)) return node;
  for (const p of node.Plans ?? []) {
    const hit = find(p, match);
    if (hit) return hit;
  }
  return undefined;
}

describe('Bulk status change - the plan of its statement', () => {
  it('reaches the findings it updates by key, not by a scan of the whole table, however large the selection', async () => {
    // The selection is every finding of one product, a large share of the table: sized from
    // the filter, a join on id alone is planned as a hash join over a sequential scan.
    const own = await freshProduct(t, admin);
    await seedFindings(
      t,
      own,
      Array.from({ length: 3000 }, () => ({ status: 'new' })),
    );
    const ds = t.app.get(DataSource);
    await ds.query('ANALYZE findings');

    const params = new SqlParams();
    const where = bulkTargetSql(
      { all: true },
      toBulkTarget({ filters: { product_id: own.id } }),
      params,
    );
    const now = new Date();
    const { sql, values } = statusChangeSql({
      where,
      params,
      plan: planBulkTransition('confirmed', {}, now),
      actor: { type: 'user', id: admin.userId, label: 'plan-check' },
      now,
      limit: 100_001,
    });
    const [row] = (await ds.query(`EXPLAIN (FORMAT JSON) ${sql}`, values)) as {
      'QUERY PLAN': { Plan: PlanNode }[];
    }[];
    const update = find(
      row['QUERY PLAN'][0].Plan,
      (n) => n['Node Type'] === 'ModifyTable' && n.Operation === 'Update',
    );
    expect(update?.['Relation Name']).toBe('findings');
    const scans = rowSources(update as PlanNode).filter((n) => n['Relation Name'] === 'findings');
    expect(scans.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(scans.map((n) => n['Node Type'])).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(Index Scan|Bitmap Heap Scan)$/)]),
    );
  });
});
