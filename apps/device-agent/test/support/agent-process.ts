import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { waitFor } from '@platform/testing';
import { FAST_ENV } from './agent-harness';

export const LAUNCHER = join(__dirname, '../../bin/certsvc-agent.js');

export interface ProcessRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The launcher as a separate process (`node apps/device-agent/bin/certsvc-agent.js ...`). */
export function spawnAgent(args: string[]): {
  child: ChildProcess;
  done: Promise<ProcessRun>;
  /** What it wrote to stdout so far. */
  stdout: () => string;
} {
  const child = spawn(process.execPath, [LAUNCHER, ...args], {
    env: { ...process.env, ...FAST_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<ProcessRun>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done, stdout: () => stdout };
}

export function runAgentProcess(args: string[]): Promise<ProcessRun> {
  return spawnAgent(args).done;
}

/** Until `check` holds, polled every 25 ms for at most `timeoutMs` (the shared `waitFor`). */
export function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  return waitFor(
    () => {
      if (!check()) throw new Error(`not yet: ${what}`);
    },
    { timeoutMs, intervalMs: 25, what },
  );
}
