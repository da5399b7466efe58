import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const WORKSPACE = join(__dirname, '../../..');
const APP = 'apps/demo';

/** Runs the `deps` check (tools/deps/check-cycles.mjs) on a tree laid out like the workspace. */
async function checkCycles(
  tree: Record<string, string>,
): Promise<{ code: number; output: string }> {
  const root = mkdtempSync(join(tmpdir(), 'planted-cycle-'));
  try {
    for (const [path, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(root, APP, path)), { recursive: true });
      writeFileSync(join(root, APP, path), text);
    }
    const run = promisify(execFile);
    try {
      const { stdout } = await run(
        process.execPath,
        ['tools/deps/check-cycles.mjs', APP, '--base-dir', root],
        { cwd: WORKSPACE },
      );
      return { code: 0, output: stdout };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

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

describe('the deps check finds import cycles (dependency-cruiser)', () => {
  it('passes a tree without cycles', async () => {
    const result = await checkCycles(featureTree(false));
    expect(result).toEqual({ code: 0, output: `${APP}: no import cycles\n` });
  });

  it('fails on two feature folders that import each other through a sub-folder', async () => {
    // No file-level cycle here: auth -> users/dto and users -> auth. Only the feature graph,
    // with users/dto collapsed into users, shows it.
    const result = await checkCycles(featureTree(true));
    expect(result.code).toBe(1);
    expect(result.output).toContain('error no-feature-cycle');
    expect(result.output).toContain(`${APP}/src/modules/auth`);
    expect(result.output).toContain(`${APP}/src/modules/users`);
    expect(result.output).not.toContain('no-circular');
  });

  it('fails on two files that import each other', async () => {
    const result = await checkCycles({
      'src/app/a.ts': "import { b } from './b';\nexport const a = (): number => b() + 1;\n",
      'src/app/b.ts': "import { a } from './a';\nexport const b = (): number => a() - 1;\n",
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain('error no-circular');
    expect(result.output).toContain(`${APP}/src/app/a.ts`);
  });
});
