import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/** The repository root: the tools are run from it. */
export const WORKSPACE = join(__dirname, '../../../..');

/** A tool's exit code and its stdout (and stderr, when it failed). */
export interface CheckResult {
  code: number;
  output: string;
}

/** Writes `tree` (paths relative to `root`) under `root`. */
export function writeTree(root: string, tree: Record<string, string>): void {
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** Runs `use` with a fresh temporary directory, removed afterwards. */
export async function inTemporaryDirectory<T>(
  prefix: string,
  use: (root: string) => Promise<T>,
): Promise<T> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await use(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** `node <tool> ...args` from the repository root, as its Nx target runs it. */
export async function runToolAlone(tool: string, args: string[]): Promise<CheckResult> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [tool, ...args], {
      cwd: WORKSPACE,
    });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/**
 * `node <tool> --cases` with `cases` as JSON on stdin: every case checked in one process
 * (starting a process and loading TypeScript cost more than checking a planted tree). Resolves
 * the result of each case, in order.
 */
export async function runToolCases(tool: string, cases: object[]): Promise<CheckResult[]> {
  const run = promisify(execFile)(process.execPath, [tool, '--cases'], {
    cwd: WORKSPACE,
    maxBuffer: 10 * 1024 * 1024,
  });
  run.child.stdin?.end(JSON.stringify(cases));
  return JSON.parse((await run).stdout) as CheckResult[];
}
