import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const WORKSPACE = join(__dirname, '../../..');

interface LintedSource {
  filePath: string;
  messages: { ruleId: string | null; severity: number; message: string }[];
}

/**
 * Lints sources that exist only in memory, placed in the tree, with the workspace's config.
 * Untyped (`--untyped`): the boundary rule needs no type information, and a TypeScript program
 * for the planted files cost ~15 s of CPU. Nx's workspace data goes to an empty directory, as on
 * a fresh clone before any Nx command: the boundary rule must still see the project graph
 * (lint-text.mjs builds it; without it the rule skipped itself with a warning).
 */
async function lintPlanted(sources: { filePath: string; code: string }[]): Promise<LintedSource[]> {
  const workspaceData = mkdtempSync(join(tmpdir(), 'nx-workspace-data-'));
  try {
    const run = promisify(execFile)(process.execPath, ['tools/lint/lint-text.mjs', '--untyped'], {
      cwd: WORKSPACE,
      maxBuffer: 10 * 1024 * 1024,
      env: { ...process.env, NX_DAEMON: 'false', NX_WORKSPACE_DATA_DIRECTORY: workspaceData },
    });
    run.child.stdin?.end(JSON.stringify(sources));
    return JSON.parse((await run).stdout) as LintedSource[];
  } finally {
    rmSync(workspaceData, { recursive: true, force: true });
  }
}

const importOf = (name: string, lib: string) =>
  `import { ${name} } from '${lib}';\n\nexport const planted = ${name};\n`;

const BOUNDARY = '@nx/enforce-module-boundaries';

// A floating promise (a rule that needs types) and a loose comparison (one that does not).
const UNTYPED_CHECK = `async function later(): Promise<void> {}

export function planted(a: number): boolean {
  later();
  return a == 1;
}
`;

describe('lint enforces the scope boundaries (@nx/enforce-module-boundaries)', () => {
  // One ESLint process for every case: building the project graph dominates its cost.
  let results: Map<string, LintedSource>;

  beforeAll(async () => {
    const linted = await lintPlanted([
      {
        filePath: 'apps/findings-service/src/planted-pki.ts',
        code: importOf('parseCsr', '@platform/pki'),
      },
      {
        filePath: 'apps/certificate-service/src/planted-parsing.ts',
        code: importOf('readReport', '@platform/report-parsing'),
      },
      {
        filePath: 'apps/plugin-runner/src/planted-pki.ts',
        code: importOf('toPem', '@platform/pki'),
      },
      {
        filePath: 'libs/errors/src/planted-protocol.ts',
        code: importOf('loadHealthService', '@platform/plugin-protocol'),
      },
      {
        filePath: 'apps/certificate-service/src/planted-protocol.ts',
        code: importOf('loadHealthService', '@platform/plugin-protocol'),
      },
      {
        filePath: 'apps/findings-service/src/planted-protocol.ts',
        code: importOf('loadHealthService', '@platform/plugin-protocol'),
      },
      {
        filePath: 'apps/findings-service/src/planted-shared.ts',
        code: importOf('DomainError', '@platform/errors'),
      },
      {
        filePath: 'apps/certificate-service/src/planted-own-scope.ts',
        code: importOf('parseCsr', '@platform/pki'),
      },
      // for lint-text's --untyped itself (below)
      { filePath: 'libs/errors/src/planted-untyped.ts', code: UNTYPED_CHECK },
    ]);
    results = new Map(linted.map((result) => [result.filePath, result]));
  }, 120_000);

  const boundaryErrors = (filePath: string) =>
    (results.get(filePath)?.messages ?? []).filter(
      (message) => message.ruleId === BOUNDARY && message.severity === 2,
    );

  it.each([
    ['apps/findings-service/src/planted-pki.ts', 'scope:findings'],
    ['apps/certificate-service/src/planted-parsing.ts', 'scope:certificates'],
    ['apps/plugin-runner/src/planted-pki.ts', 'scope:plugins'],
    ['libs/errors/src/planted-protocol.ts', 'scope:shared'],
    ['apps/certificate-service/src/planted-protocol.ts', 'scope:certificates'],
  ])('refuses a cross-scope import in %s', (filePath, scope) => {
    const errors = boundaryErrors(filePath);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain(`A project tagged with "${scope}" can only depend on`);
  });

  it.each([
    'apps/findings-service/src/planted-shared.ts',
    'apps/certificate-service/src/planted-own-scope.ts',
    // the runner's client
    'apps/findings-service/src/planted-protocol.ts',
  ])('accepts an import of its own scope or a shared lib in %s', (filePath) => {
    expect(results.get(filePath)?.messages).toEqual([]);
  });

  describe('lint-text --untyped', () => {
    it('lints with the workspace rules that need no types, and without a TypeScript program', () => {
      const rules = (results.get('libs/errors/src/planted-untyped.ts')?.messages ?? []).map(
        (message) => message.ruleId,
      );
      expect(rules).toContain('eqeqeq');
      // Typed, @typescript-eslint/no-floating-promises reports `later();`.
      expect(rules).not.toContain('@typescript-eslint/no-floating-promises');
    });
  });
});
