import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRunId, waitFor } from '@platform/testing';

const ROOT = join(__dirname, '../../../..');
const PACKAGING = join(ROOT, 'apps/device-agent/packaging');

/** What the package tests run: the single executable and the .deb around it. */
export interface PackagedAgent {
  readonly executable: string;
  readonly deb: string;
  /** Seconds this process spent building (0: reused from the run's cache). */
  readonly buildSeconds: number;
}

/**
 * Builds the single executable and the .deb once per test run (TEST_RUN_ID) into
 * `<tmp>/certsvc-agent-package-<run>/`, with the same scripts `nx run device-agent:package` and
 * `:package-deb` run (zstd: the compression does not change what is packaged). Two test files
 * of one run share it: the first takes `build.lock` (mkdir) and builds, the other waits.
 */
export async function packagedAgent(): Promise<PackagedAgent> {
  const dir = join(tmpdir(), `certsvc-agent-package-${testRunId()}`);
  removeStaleBuilds(dir);
  mkdirSync(dir, { recursive: true });
  const executable = join(dir, 'certsvc-agent');
  const done = join(dir, 'built');
  const debIn = () => readdirSync(dir).find((name) => name.endsWith('.deb'));
  const started = Date.now();
  let built = false;
  if (!existsSync(done)) {
    let owner = false;
    try {
      mkdirSync(join(dir, 'build.lock'));
      owner = true;
    } catch {
      // another test file of this run builds: wait for it below
    }
    if (owner) {
      try {
        execFileSync(
          process.execPath,
          [join(PACKAGING, 'build-executable.mjs'), '--out-dir', dir],
          {
            stdio: ['ignore', 'ignore', 'pipe'],
          },
        );
        execFileSync(
          process.execPath,
          [join(PACKAGING, 'build-deb.mjs'), '--out-dir', dir, '--compression', 'zstd'],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        );
        // only the two artefacts stay (~115 MB): not the bundle, the SEA blob, the staging tree
        for (const name of ['bundle', 'sea', 'deb-root']) {
          rmSync(join(dir, name), { recursive: true, force: true });
        }
        mkdirSync(done);
        built = true;
      } finally {
        rmSync(join(dir, 'build.lock'), { recursive: true, force: true });
      }
    } else {
      await waitFor(
        () => {
          if (!existsSync(done)) throw new Error(`${done} not there yet`);
        },
        { timeoutMs: 240_000, intervalMs: 250, what: 'the other test file’s package build' },
      );
    }
  }
  const deb = debIn();
  if (!deb) throw new Error(`no .deb in ${dir}`);
  return {
    executable,
    deb: join(dir, deb),
    buildSeconds: built ? (Date.now() - started) / 1000 : 0,
  };
}

/** Other runs' builds (~115 MB each) older than two hours: no test of theirs still uses them. */
function removeStaleBuilds(ours: string): void {
  const prefix = 'certsvc-agent-package-';
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!name.startsWith(prefix) || path === ours) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > 2 * 3600_000) {
        rmSync(path, { recursive: true, force: true });
      }
    } catch {
      // removed by another run meanwhile
    }
  }
}

/** An empty directory for PATH: no node, no tool at all is reachable by name. */
export function emptyPathDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'agent-no-path-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `file` with exactly `env` (nothing inherited), in `cwd`. */
export function runFile(
  file: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): Promise<Ran> {
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
