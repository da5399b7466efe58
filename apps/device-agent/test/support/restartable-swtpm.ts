import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTpmStateWithEkCert } from './agent-harness';

const run = promisify(execFile);

/**
 * A software TPM that can be powered off and on (a reboot: transient objects and saved contexts
 * are gone, the persistent state stays), for the agent's TPM tests.
 */
export class RestartableSwtpm {
  private child?: ChildProcess;
  private ended?: Promise<void>;
  tcti = '';

  private constructor(
    readonly dir: string,
    readonly ek: Awaited<ReturnType<typeof createTpmStateWithEkCert>>,
  ) {}

  static async create(): Promise<RestartableSwtpm> {
    const dir = mkdtempSync(join(tmpdir(), 'agent-swtpm-'));
    return new RestartableSwtpm(dir, await createTpmStateWithEkCert(dir));
  }

  async powerOn(): Promise<void> {
    const port = await freePortPair();
    const child = spawn(
      'swtpm',
      [
        ...['socket', '--tpm2', '--tpmstate', `dir=${this.ek.stateDir}`],
        ...['--server', `type=tcp,port=${port},bindaddr=127.0.0.1`],
        ...['--ctrl', `type=tcp,port=${port + 1},bindaddr=127.0.0.1`],
        ...['--flags', 'not-need-init,startup-clear'],
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    this.ended = new Promise((resolve) => child.once('close', () => resolve()));
    this.tcti = `swtpm:host=127.0.0.1,port=${port}`;
    for (let attempt = 0; ; attempt += 1) {
      try {
        await run('tpm2_getcap', ['properties-fixed'], {
          env: { ...process.env, TPM2TOOLS_TCTI: this.tcti },
        });
        return;
      } catch (error) {
        if (attempt > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  async powerOff(): Promise<void> {
    this.child?.kill('SIGTERM');
    await this.ended;
  }

  async remove(): Promise<void> {
    await this.powerOff();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = await listenOn(0);
    if (port > 0 && port < 65535 && (await listenOn(port + 1)) === port + 1) return port;
  }
  throw new Error('no two consecutive free ports');
}

function listenOn(port: number): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(-1));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : -1));
    });
  });
}
