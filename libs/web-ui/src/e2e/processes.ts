import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const REPOSITORY_ROOT = join(__dirname, '../../../..');

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  name: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * `node [args]` from the repository root with only the given environment (plus PATH). With
 * E2E_PROCESS_LOG_DIR set, the process's whole output is also written to `<dir>/<name>.log`
 * (otherwise only its last 200 000 characters are kept, for the error of a failed start).
 */
export function startNode(name: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, args, {
    cwd: REPOSITORY_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const logDir = process.env['E2E_PROCESS_LOG_DIR'];
  if (logDir) mkdirSync(logDir, { recursive: true });
  const log = logDir ? createWriteStream(join(logDir, `${name}.log`)) : undefined;
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-200_000);
    log?.write(d);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const ended = new Promise<void>((resolve) =>
    child.once('close', () => {
      log?.end();
      resolve();
    }),
  );
  return {
    name,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await ended;
        clearTimeout(timer);
      }
    },
  };
}

/** Polls `url` until it answers 2xx; fails at once when the process exits, or after `timeoutMs`. */
export async function waitForHttp(child: Child, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(
        `${child.name} exited before ${url} answered:\n${child.output().slice(-4000)}`,
      );
    }
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) {
      throw new Error(
        `${child.name}: ${url} did not answer in ${timeoutMs} ms:\n${child.output().slice(-4000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** Waits for a JSON log line of the process that `match`es; fails at once when it exits. */
export async function waitForLine(
  child: Child,
  match: (line: Record<string, unknown>) => boolean,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const text of child.output().split('\n')) {
      if (!text.startsWith('{')) continue;
      try {
        const line = JSON.parse(text) as Record<string, unknown>;
        if (match(line)) return line;
      } catch {
        // a partial line: read again on the next round
      }
    }
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`${child.name} exited:\n${child.output().slice(-4000)}`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${child.name}: no matching log line in ${timeoutMs} ms:\n${child.output().slice(-4000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
