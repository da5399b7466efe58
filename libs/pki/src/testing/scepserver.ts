// Test support: the real SCEP CA of Debian's `scep` package (`/usr/bin/scepserver`, micromdm
// scep 2.x) on a free loopback port, its depot in a temporary directory.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@platform/testing';

export const SCEPSERVER_BIN = '/usr/bin/scepserver';

export interface RunningScepServer {
  readonly url: string;
  /** The CA certificate (PEM) the depot holds. */
  readonly caCertificatePem: string;
  stop(): Promise<void>;
}

export interface ScepServerOptions {
  /** Enforced challenge password (`-challenge`). */
  readonly challenge?: string;
}

/** Inits a depot (`scepserver ca -init`) and starts the server; waits until it answers. */
export async function startScepServer(options: ScepServerOptions = {}): Promise<RunningScepServer> {
  const dir = mkdtempSync(join(tmpdir(), 'scepserver-'));
  const depot = join(dir, 'depot');
  const init = spawnSync(SCEPSERVER_BIN, ['ca', '-init', '-depot', depot, '-keySize', '2048'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (init.status !== 0) throw new Error(`scepserver ca -init failed: ${init.stderr}`);
  const port = await freePort();
  const args = ['-depot', depot, '-port', String(port), '-allowrenew', '0'];
  if (options.challenge) args.push('-challenge', options.challenge);
  const child: ChildProcess = spawn(SCEPSERVER_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()).slice(-4000));
  const url = `http://127.0.0.1:${port}/scep`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const res = await fetch(`${url}?operation=GetCACaps`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error(`scepserver did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    caCertificatePem: readFileSync(join(depot, 'ca.pem'), 'utf8'),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
