import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLI = join(__dirname, '..', '..', 'bin', 'platform.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliHome {
  /** XDG_CONFIG_HOME of the runs: the credentials go to <dir>/platform/credentials.json. */
  dir: string;
  credentials: string;
  run(args: string[], options?: RunOptions): Promise<CliResult>;
  start(args: string[], options?: RunOptions): RunningCli;
  remove(): void;
}

export interface RunOptions {
  env?: Record<string, string>;
  stdin?: string;
  /** node options placed before the launcher (e.g. --require a preload). */
  nodeArgs?: string[];
}

/** Runs the real launcher in a child process, as a person or a CI job would. */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      ...options.env,
    };
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

export interface RunningCli {
  /** Resolves with the first match of `pattern` in stderr so far or later. */
  stderrMatch(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  done: Promise<CliResult>;
}

/** Starts the launcher and lets the test talk to it while it runs (a browser sign-in). */
export function startCli(args: string[], options: RunOptions = {}): RunningCli {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const w of waiters) w();
  });
  child.stdin.end(options.stdin ?? '');
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return {
    done,
    stderrMatch: (pattern, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = stderr.match(pattern);
          if (!m) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(m);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`stderr never matched ${pattern}: ${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        check();
        void done.then(() => check());
      }),
  };
}

/** A fresh config home for one test file's runs. */
export function cliHome(baseEnv: Record<string, string> = {}): CliHome {
  const dir = mkdtempSync(join(tmpdir(), 'platform-cli-'));
  return {
    dir,
    credentials: join(dir, 'platform', 'credentials.json'),
    run: (args, options = {}) =>
      runCli(args, { ...options, env: { XDG_CONFIG_HOME: dir, ...baseEnv, ...options.env } }),
    start: (args, options = {}) =>
      startCli(args, { ...options, env: { XDG_CONFIG_HOME: dir, ...baseEnv, ...options.env } }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The failure message of a run, for expect(...) messages. */
export function describeRun(r: CliResult): string {
  return `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
}
