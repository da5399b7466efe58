import { join } from 'node:path';
import {
  inTemporaryDirectory,
  runToolAlone,
  runToolCases,
  writeTree,
  type CheckResult,
} from './support/planted-trees';

const APP = 'apps/demo';
const MODULES = `${APP}/src/modules`;
const TOOL = 'tools/lint/table-owners.mjs';

/** The check run alone on a planted tree, as the `table-owners` target runs it. */
async function checkAlone(tree: Record<string, string>): Promise<CheckResult> {
  return inTemporaryDirectory('planted-table-write-', async (root) => {
    writeTree(root, tree);
    return runToolAlone(TOOL, [APP, '--base-dir', root]);
  });
}

/** A check of `project`, in the real tree or in a tree laid out like the workspace. */
type Case = { project: string; tree?: Record<string, string> };

/**
 * Runs the table-owner check (tools/lint/table-owners.mjs) on every case in one process
 * (`--cases`: starting a process and loading TypeScript cost more than checking a planted
 * tree). A planted tree is written to a temporary directory: nothing is planted in the real tree.
 */
async function checkAll(cases: Record<string, Case>): Promise<Map<string, CheckResult>> {
  return inTemporaryDirectory('planted-table-write-', async (root) => {
    const input = Object.entries(cases).map(([name, { project, tree }]) => {
      if (!tree) return { project };
      writeTree(join(root, name), tree);
      return { project, baseDir: join(root, name) };
    });
    const results = await runToolCases(TOOL, input);
    return new Map(Object.keys(cases).map((name, index) => [name, results[index]]));
  });
}

const DOC_ROWS = [
  '| `findings` | `modules/findings` (`deleteProductFindingsSql`) |',
  '| `finding_actions` | `modules/action-log` |',
  '| `products`, `product_tags` | `modules/products` |',
];

function doc(rows: string[] = DOC_ROWS, foreignWrites: string[] = []): string {
  const allowed =
    foreignWrites.length === 0
      ? ''
      : `\n<!-- foreign-writes ${APP} -->\n| File | Tables | Why |\n| --- | --- | --- |\n` +
        `${foreignWrites.join('\n')}\n<!-- /foreign-writes -->\n`;
  return (
    `# Architecture\n\n**Table owners.**\n\n<!-- table-owners ${APP} -->\n` +
    `| Tables | Owner |\n| ------ | ----- |\n${rows.join('\n')}\n<!-- /table-owners -->\n${allowed}`
  );
}

/**
 * Three feature folders, each writing only its own tables; products reads findings freely and
 * deletes a product's findings through the SQL builder findings exports.
 */
function ownTree(): Record<string, string> {
  return {
    'docs/architecture.md': doc(),
    [`${MODULES}/findings/finding.entity.ts`]:
      "import { Entity, PrimaryColumn } from 'typeorm';\n" +
      "@Entity('findings')\nexport class FindingEntity {\n  @PrimaryColumn() id!: string;\n}\n",
    [`${MODULES}/findings/product-findings.sql.ts`]:
      'export const deleteProductFindingsSql = (productId: string) => ({\n' +
      '  sql: `DELETE FROM findings WHERE product_id = $1`,\n  values: [productId],\n});\n',
    [`${MODULES}/findings/findings.repository.ts`]:
      "import { InjectRepository } from '@nestjs/typeorm';\n" +
      "import { Repository, type EntityManager } from 'typeorm';\n" +
      "import { FindingEntity } from './finding.entity';\n" +
      'export class FindingsRepository {\n' +
      '  constructor(\n' +
      '    @InjectRepository(FindingEntity) private readonly findings: Repository<FindingEntity>,\n' +
      '  ) {}\n' +
      '  async close(manager: EntityManager, id: string): Promise<void> {\n' +
      '    await this.findings.update({ id }, { id });\n    await manager.save(FindingEntity, { id });\n' +
      "    await manager.query(`UPDATE findings f SET status = 'fixed' WHERE f.id = $1`, [id]);\n" +
      '  }\n}\n',
    [`${MODULES}/action-log/finding-action.entity.ts`]:
      "import { Entity, PrimaryColumn } from 'typeorm';\n" +
      "@Entity({ name: 'finding_actions' })\nexport class FindingActionEntity {\n" +
      '  @PrimaryColumn() id!: string;\n}\n',
    [`${MODULES}/action-log/action-log.writer.ts`]:
      'export const INSERT = `INSERT INTO finding_actions (finding_id) SELECT unnest($1::uuid[])`;\n',
    [`${MODULES}/products/product.entity.ts`]:
      "import { Entity, PrimaryColumn } from 'typeorm';\n" +
      "@Entity('products')\nexport class ProductEntity {\n  @PrimaryColumn() id!: string;\n}\n" +
      "@Entity('product_tags')\nexport class ProductTagEntity {\n  @PrimaryColumn() id!: string;\n}\n",
    [`${MODULES}/products/products.repository.ts`]:
      "import { DataSource, type EntityManager } from 'typeorm';\n" +
      "import { FindingEntity } from '../findings/finding.entity';\n" +
      "import { deleteProductFindingsSql } from '../findings/product-findings.sql';\n" +
      "import { ProductEntity } from './product.entity';\n" +
      'export class ProductsRepository {\n' +
      '  private readonly cache = new Map<string, string>();\n' +
      '  constructor(private readonly dataSource: DataSource) {}\n' +
      '  async delete(manager: EntityManager, id: string): Promise<void> {\n' +
      '    // UPDATE findings is never written here: DELETE FROM findings goes through findings.\n' +
      '    await manager.query(\n' +
      '      `SELECT f.id FROM findings f JOIN products p ON p.id = f.product_id\n' +
      '        WHERE p.id = $1 FOR UPDATE OF f`,\n' +
      '      [id],\n    );\n' +
      '    await manager.query(`SELECT 1 FROM findings WHERE id = $1 FOR NO KEY UPDATE`, [id]);\n' +
      '    await manager.query(`COPY (SELECT id FROM findings) TO STDOUT`);\n' +
      '    const { sql, values } = deleteProductFindingsSql(id);\n' +
      '    await manager.query(sql, values);\n' +
      '    await manager.query(\n' +
      "      'INSERT INTO products (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id',\n" +
      '      [id],\n    );\n' +
      '    await manager.getRepository(ProductEntity).delete({ id });\n' +
      '    await manager.getRepository(FindingEntity).find({ where: { id } });\n' +
      '    this.cache.delete(id);\n' +
      '  }\n}\n',
  };
}

/** The own tree with `file` (under src/modules) added. */
function planted(file: string, text: string): Record<string, string> {
  return { ...ownTree(), [`${MODULES}/${file}`]: text };
}

/** The `path:line: KIND writes table` parts of the check's complaints. */
function violations(output: string): string[] {
  return [...output.matchAll(/(src\/\S+:\d+): (.+?) writes (\w+), owned by/g)].map(
    (match) => `${match[1]} ${match[2]} ${match[3]}`,
  );
}

const SQL_CLEANUP = planted(
  'products/product-cleanup.repository.ts',
  [
    "import type { EntityManager } from 'typeorm';",
    'export async function purge(m: EntityManager, id: string, title: string): Promise<void> {',
    "  await m.query(`UPDATE findings f SET status = 'fixed' WHERE f.product_id = $1`, [id]);",
    '  await m.query(`DELETE FROM "public"."findings" WHERE product_id = $1`, [id]);',
    "  await m.query('insert into finding_actions (finding_id) select id from gone');",
    '  await m.query(`COPY findings (id, title) FROM STDIN`);',
    '  await m.query(`TRUNCATE TABLE product_tags, ONLY findings`);',
    '  await m.query(`WITH x AS (UPDATE\n    findings SET title = ${title} RETURNING 1) SELECT 1`);',
    '  await m.query(`MERGE INTO findings f USING gone g ON g.id = f.id WHEN MATCHED THEN DELETE`);',
    '}',
  ].join('\n'),
);

const TYPEORM_WRITES = planted(
  'products/product-findings.repository.ts',
  [
    "import { InjectRepository } from '@nestjs/typeorm';",
    "import { DataSource, Repository, type EntityManager } from 'typeorm';",
    "import { FindingEntity as Finding } from '../findings/finding.entity';",
    'export class ProductFindingsRepository {',
    '  constructor(',
    '    private readonly dataSource: DataSource,',
    '    @InjectRepository(Finding) private readonly findings: Repository<Finding>,',
    '  ) {}',
    '  private get repo() {',
    '    return this.dataSource.getRepository(Finding);',
    '  }',
    '  async purge(manager: EntityManager, id: string): Promise<void> {',
    '    await manager.getRepository(Finding).save({ id });',
    '    await this.findings.update({ id }, { id });',
    '    await manager.insert(Finding, { id });',
    '    await manager.createQueryBuilder().insert().into(Finding).values({ id }).execute();',
    '    await manager.createQueryBuilder().delete().from(Finding).where({ id }).execute();',
    '    await this.repo.delete({ id });',
    '    await (manager?.getRepository(Finding) ?? this.findings).upsert({ id }, ["id"]);',
    '  }',
    '}',
  ].join('\n'),
);

function allowedWriteTree(): Record<string, string> {
  const tree = planted(
    'products/product-cleanup.repository.ts',
    'export const A = `DELETE FROM findings`;\nexport const B = `UPDATE finding_actions SET x = 1`;\n',
  );
  tree['docs/architecture.md'] = doc(DOC_ROWS, [
    '| `apps/demo/src/modules/products/product-cleanup.repository.ts` | `findings` | a reason |',
  ]);
  return tree;
}

const REAL_PROJECTS = ['apps/findings-service', 'apps/certificate-service'];

const CASES: Record<string, Case> = {
  own: { project: APP, tree: ownTree() },
  sqlWrites: { project: APP, tree: SQL_CLEANUP },
  typeormWrites: { project: APP, tree: TYPEORM_WRITES },
  outsideModules: {
    project: APP,
    tree: {
      ...ownTree(),
      [`${APP}/src/worker/purge.ts`]: 'export const PURGE = `DELETE FROM products`;\n',
    },
  },
  allowedWrite: { project: APP, tree: allowedWriteTree() },
  missing: {
    project: APP,
    tree: { ...ownTree(), 'docs/architecture.md': doc(DOC_ROWS.slice(0, 2)) },
  },
  wrongOwner: {
    project: APP,
    tree: {
      ...ownTree(),
      'docs/architecture.md': doc([
        DOC_ROWS[0],
        '| `finding_actions` | `modules/findings` |',
        DOC_ROWS[2],
      ]),
    },
  },
  stale: {
    project: APP,
    tree: {
      ...ownTree(),
      'docs/architecture.md': doc([...DOC_ROWS, '| `gone` | `modules/products` |']),
    },
  },
  noList: { project: APP, tree: { ...ownTree(), 'docs/architecture.md': '# Architecture\n' } },
  ...Object.fromEntries(REAL_PROJECTS.map((project) => [project, { project }])),
};

describe('the table-owner check (tools/lint/table-owners.mjs)', () => {
  let results: Map<string, CheckResult>;

  beforeAll(async () => {
    results = await checkAll(CASES);
  }, 60_000);

  const checked = (name: string): CheckResult => {
    const result = results.get(name);
    if (!result) throw new Error(`no result for the case ${name}`);
    return result;
  };

  it('passes a tree where each table is written by its owner only, however others read it', () => {
    const result = checked('own');
    expect(result).toEqual({
      code: 0,
      output: `${APP}: every table written only by its owner (4 tables)\n`,
    });
  });

  it('fails on SQL writes of another module’s table, naming file, line and statement', () => {
    const result = checked('sqlWrites');
    expect(result.code).toBe(1);
    const file = 'src/modules/products/product-cleanup.repository.ts';
    expect(violations(result.output)).toEqual([
      `${file}:3 UPDATE findings`,
      `${file}:4 DELETE findings`,
      `${file}:5 INSERT finding_actions`,
      `${file}:6 COPY findings`,
      `${file}:7 TRUNCATE findings`,
      `${file}:8 UPDATE findings`,
      `${file}:10 MERGE findings`,
    ]);
    expect(result.output).toContain('owned by modules/findings');
  });

  it('fails on TypeORM writes through another module’s entity', () => {
    const result = checked('typeormWrites');
    expect(result.code).toBe(1);
    const file = 'src/modules/products/product-findings.repository.ts';
    expect(violations(result.output)).toEqual([
      `${file}:13 TypeORM save findings`,
      `${file}:14 TypeORM update findings`,
      `${file}:15 TypeORM insert findings`,
      `${file}:16 TypeORM into findings`,
      `${file}:17 TypeORM from findings`,
      `${file}:18 TypeORM delete findings`,
      `${file}:19 TypeORM upsert findings`,
    ]);
  });

  it('fails on a write from outside src/modules (every table belongs to a module)', () => {
    const result = checked('outsideModules');
    expect(result.code).toBe(1);
    expect(violations(result.output)).toEqual(['src/worker/purge.ts:1 DELETE products']);
  });

  it('passes a foreign write the list allows, with its reason, and only that one', () => {
    const result = checked('allowedWrite');
    expect(result.code).toBe(1);
    expect(violations(result.output)).toEqual([
      'src/modules/products/product-cleanup.repository.ts:2 UPDATE finding_actions',
    ]);
  });

  it('fails when the list and the entities disagree', () => {
    const missing = checked('missing');
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('table products (entity in apps/demo/src/modules/products');
    expect(missing.output).toContain('has no owner in the list');

    const wrongOwner = checked('wrongOwner');
    expect(wrongOwner.code).toBe(1);
    expect(wrongOwner.output).toContain(
      'table finding_actions is listed with owner modules/findings, but its entity is declared in',
    );

    const stale = checked('stale');
    expect(stale.code).toBe(1);
    expect(stale.output).toContain('table gone is listed for apps/demo, but no entity declares it');

    const noList = checked('noList');
    expect(noList.code).toBe(1);
    expect(noList.output).toContain('no owner list for apps/demo');
  });

  it.each(REAL_PROJECTS)(
    'passes the real tree of %s with the list of docs/architecture.md',
    (project) => {
      const result = checked(project);
      expect(result.output).toMatch(
        new RegExp(`^${project}: every table written only by its owner \\(\\d+ tables\\)\n$`),
      );
      expect(result.code).toBe(0);
    },
  );

  it('run alone, exits with the code and prints the output --cases gave for the same tree', async () => {
    expect(await checkAlone(SQL_CLEANUP)).toEqual(checked('sqlWrites'));
  });
});
