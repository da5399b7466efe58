import { join } from 'node:path';
import {
  inTemporaryDirectory,
  runToolAlone,
  runToolCases,
  writeTree,
  type CheckResult,
} from './support/planted-trees';

const APP = 'apps/demo';
const TOOL = 'tools/deps/check-cycles.mjs';

/**
 * Runs the `deps` check (tools/deps/check-cycles.mjs: import cycles and the layers of a
 * service's src/) on trees laid out like the workspace (paths under apps/demo), all in one
 * process (`--cases`: starting a process and loading dependency-cruiser and TypeScript cost
 * more than cruising a tree).
 */
async function checkAll(
  trees: Record<string, Record<string, string>>,
): Promise<Map<string, CheckResult>> {
  return inTemporaryDirectory('planted-cycle-', async (root) => {
    const input = Object.entries(trees).map(([name, tree]) => {
      writeTree(join(root, name, APP), tree);
      return { project: APP, baseDir: join(root, name) };
    });
    const results = await runToolCases(TOOL, input);
    return new Map(Object.keys(trees).map((name, index) => [name, results[index]]));
  });
}

/** The check run alone on one tree, as the `deps` target runs it. */
async function checkAlone(tree: Record<string, string>): Promise<CheckResult> {
  return inTemporaryDirectory('planted-cycle-', async (root) => {
    writeTree(join(root, APP), tree);
    return runToolAlone(TOOL, [APP, '--base-dir', root]);
  });
}

const PASSED = `${APP}: no import cycles, no import up a layer\n`;

/** auth uses a users DTO; users uses auth only when `usersImportsAuth`. */
function featureTree(usersImportsAuth: boolean): Record<string, string> {
  return {
    'src/modules/auth/auth.service.ts':
      "import type { UserDto } from '../users/dto/user.dto';\n" +
      'export const greet = (user: UserDto): string => user.name;\n',
    'src/modules/users/dto/user.dto.ts': 'export interface UserDto {\n  name: string;\n}\n',
    'src/modules/users/users.service.ts': usersImportsAuth
      ? "import { greet } from '../auth/auth.service';\nexport const hello = greet({ name: 'a' });\n"
      : "export const hello = 'a';\n",
    'src/main.ts': "import { hello } from './modules/users/users.service';\nexport { hello };\n",
  };
}

/** Every case's tree, cruised in one process before the tests. */
const TREES: Record<string, Record<string, string>> = {
  noCycle: featureTree(false),
  featureCycle: featureTree(true),
  fileCycle: {
    'src/app/a.ts': "import { b } from './b';\nexport const a = (): number => b() + 1;\n",
    'src/app/b.ts': "import { a } from './a';\nexport const b = (): number => a() - 1;\n",
  },
  layered: layeredTree(),
  kernelImportsModule: layeredTree({
    'src/app/metrics/business-metrics.ts':
      "import { queue } from '../../modules/reports/report-queue';\nexport const gauge = queue;\n",
  }),
  kernelImportsRoot: layeredTree({
    'src/app/openapi.ts':
      "import { appModule } from '../api/app.module';\nexport const document = appModule;\n",
    'src/app/entities.ts':
      "import { database } from '../database/database';\nexport const entities = database;\n",
    'src/app/entry.ts':
      "import { workerModule } from '../worker';\nexport const w = workerModule;\n",
  }),
  moduleImportsRoot: layeredTree({
    'src/modules/users/users.service.ts':
      "import { gauge } from '../../api/metrics/business-metrics';\n" +
      "import { workerModule } from '../../worker/worker.module';\n" +
      "import { database } from '../../database/database';\n" +
      'export const users = { gauge, workerModule, database };\n',
  }),
  rootImportsRoot: layeredTree({
    'src/worker/worker.module.ts':
      "import { gauge } from '../api/metrics/business-metrics';\nexport const workerModule = { gauge };\n",
  }),
};

let results: Map<string, CheckResult>;

beforeAll(async () => {
  results = await checkAll(TREES);
}, 60_000);

const checked = (name: string): CheckResult => {
  const result = results.get(name);
  if (!result) throw new Error(`no result for the case ${name}`);
  return result;
};

describe('the deps check finds import cycles (dependency-cruiser)', () => {
  it('passes a tree without cycles', () => {
    const result = checked('noCycle');
    expect(result).toEqual({ code: 0, output: PASSED });
  });

  it('fails on two feature folders that import each other through a sub-folder', async () => {
    // No file-level cycle here: auth -> users/dto and users -> auth. Only the feature graph,
    // with users/dto collapsed into users, shows it.
    const result = checked('featureCycle');
    expect(result.code).toBe(1);
    expect(result.output).toContain('error no-feature-cycle');
    expect(result.output).toContain(`${APP}/src/modules/auth`);
    expect(result.output).toContain(`${APP}/src/modules/users`);
    expect(result.output).not.toContain('no-circular');
  });

  it('fails on two files that import each other', () => {
    const result = checked('fileCycle');
    expect(result.code).toBe(1);
    expect(result.output).toContain('error no-circular');
    expect(result.output).toContain(`${APP}/src/app/a.ts`);
  });
});

/**
 * A service laid out in its layers, top to bottom: the entry points (src/main.ts,
 * src/worker.ts), the composition roots (src/api, src/worker), src/database, the modules, the
 * kernel (src/app). `planted` adds or replaces files.
 */
function layeredTree(planted: Record<string, string> = {}): Record<string, string> {
  return {
    'src/app/config.ts': 'export const config = { port: 3000 };\n',
    'src/modules/reports/report-queue.ts':
      "import { config } from '../../app/config';\nexport const queue = `q${config.port}`;\n",
    'src/modules/reports/reports.module.ts':
      "import { queue } from './report-queue';\nexport const reports = [queue];\n",
    'src/database/database.ts':
      "import { reports } from '../modules/reports/reports.module';\n" +
      "import { config } from '../app/config';\n" +
      'export const database = { entities: reports, port: config.port };\n',
    'src/api/metrics/business-metrics.ts':
      "import { queue } from '../../modules/reports/report-queue';\nexport const gauge = queue;\n",
    'src/api/app.module.ts':
      "import { database } from '../database/database';\n" +
      "import { reports } from '../modules/reports/reports.module';\n" +
      "import { gauge } from './metrics/business-metrics';\n" +
      'export const appModule = { database, reports, gauge };\n',
    'src/worker/worker.module.ts':
      "import { database } from '../database/database';\n" +
      "import { queue } from '../modules/reports/report-queue';\n" +
      'export const workerModule = { database, queue };\n',
    'src/main.ts': "import { appModule } from './api/app.module';\nexport { appModule };\n",
    'src/worker.ts':
      "import { workerModule } from './worker/worker.module';\nexport { workerModule };\n",
    ...planted,
  };
}

describe('the deps check keeps the roof above the floor (dependency-cruiser layer rules)', () => {
  it('passes a service whose imports all run down: entry, roots, database, modules, kernel', () => {
    const result = checked('layered');
    expect(result).toEqual({ code: 0, output: PASSED });
  });

  it('fails when the kernel (src/app) imports a module', async () => {
    // The findings business-metrics collector where it stood before: in src/app, reading a
    // module's queue. No cycle: only the layer rule can see it.
    const result = checked('kernelImportsModule');
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      `error kernel-imports-no-module: ${APP}/src/app/metrics/business-metrics.ts → ` +
        `${APP}/src/modules/reports/report-queue.ts`,
    );
    expect(result.output).not.toContain('no-circular');
  });

  it('fails when the kernel imports a composition root, src/database or an entry point', () => {
    const result = checked('kernelImportsRoot');
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      `error kernel-imports-no-module: ${APP}/src/app/openapi.ts → ${APP}/src/api/app.module.ts`,
    );
    expect(result.output).toContain(
      `error kernel-imports-no-module: ${APP}/src/app/entities.ts → ${APP}/src/database/database.ts`,
    );
    expect(result.output).toContain(
      `error kernel-imports-no-module: ${APP}/src/app/entry.ts → ${APP}/src/worker.ts`,
    );
  });

  it('fails when a module imports a composition root or src/database', () => {
    const result = checked('moduleImportsRoot');
    expect(result.code).toBe(1);
    for (const root of ['api/metrics/business-metrics.ts', 'worker/worker.module.ts']) {
      expect(result.output).toContain(
        `error module-imports-no-root: ${APP}/src/modules/users/users.service.ts → ${APP}/src/${root}`,
      );
    }
    expect(result.output).toContain(
      `error module-imports-no-root: ${APP}/src/modules/users/users.service.ts → ` +
        `${APP}/src/database/database.ts`,
    );
    expect(result.output).not.toContain('no-circular');
  });

  it('fails when one composition root imports the other', () => {
    const result = checked('rootImportsRoot');
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      `error worker-imports-no-api: ${APP}/src/worker/worker.module.ts → ` +
        `${APP}/src/api/metrics/business-metrics.ts`,
    );
  });
});

describe('the deps check run alone', () => {
  it('exits with the code and prints the output --cases gave for the same tree', async () => {
    expect(await checkAlone(TREES.featureCycle)).toEqual(checked('featureCycle'));
  });
});
