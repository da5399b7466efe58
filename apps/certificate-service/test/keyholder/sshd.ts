import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { REPOSITORY_ROOT, waitFor, WaitAborted } from '@platform/testing';

/** The shipped target-server scripts (tools/keyholder/). */
export const KEYHOLDER_TOOLS = join(REPOSITORY_ROOT, 'tools/keyholder');

/** A free TCP port on loopback (asked of the kernel, then released). */
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

/** Result of a command run to its end. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program without blocking the event loop (the app in this process must answer it). */
export function run(file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 255) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A target server's directory as the README installs it: the shipped scripts, the key-holder
 * configuration and the KRL sshd reads. sshd checks that the AuthorizedKeysCommand and every
 * directory above it belong to root and are writable by nobody else, so it lives under
 * /var/lib (not /tmp, which is world-writable).
 */
export class TargetServer {
  readonly dir = mkdtempSync('/var/lib/certsvc-sshd-test-');
  readonly keysCommand = join(this.dir, 'certsvc-keyholder-keys');
  readonly krlRefresh = join(this.dir, 'certsvc-krl-refresh');
  readonly conf = join(this.dir, 'keyholder.conf');
  readonly krl = join(this.dir, 'certsvc.krl');
  readonly caKeys = join(this.dir, 'trusted-user-ca-keys.pub');
  readonly tokenFile = join(this.dir, 'keyholder.token');

  constructor(serviceUrl: string) {
    chmodSync(this.dir, 0o755);
    for (const script of ['certsvc-keyholder-keys', 'certsvc-krl-refresh']) {
      copyFileSync(join(KEYHOLDER_TOOLS, script), join(this.dir, script));
      chmodSync(join(this.dir, script), 0o755);
    }
    this.configure({ KEYHOLDER_URL: serviceUrl, KEYHOLDER_KRL_FILE: this.krl });
  }

  /** Writes keyholder.conf (readable by the AuthorizedKeysCommandUser). */
  configure(values: Record<string, string>): void {
    const text = Object.entries(values)
      .map(([k, v]) => `${k}=${v}\n`)
      .join('');
    writeFileSync(this.conf, `# written by the sshd e2e test\n${text}`, { mode: 0o644 });
    chmodSync(this.conf, 0o644);
  }

  writeToken(value: string): void {
    writeFileSync(this.tokenFile, `${value}\n`, { mode: 0o644 });
  }

  /** Runs the shipped KRL refresher with this server's configuration. */
  refreshKrl(): Promise<Run> {
    return run('/bin/sh', [this.krlRefresh, '-c', this.conf], { PATH: process.env.PATH });
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface SshdOptions {
  /** TrustedUserCAKeys file (certificates), when the test serves one. */
  trustedUserCaKeys?: string;
  /** RevokedKeys file, when the test serves one (it must exist: sshd refuses every key otherwise). */
  revokedKeys?: string;
  /** A local authorized_keys file besides the command (a key sshd knows without the service). */
  authorizedKeysFile?: string;
}

/** OpenSSH's sshd on loopback, root login by key or certificate only, keys from the script. */
export class Sshd {
  private child?: ChildProcess;
  private output = '';
  private ended?: Promise<void>;
  port = 0;
  readonly hostKey: string;

  constructor(
    private readonly server: TargetServer,
    private readonly options: SshdOptions = {},
  ) {
    this.hostKey = join(server.dir, 'ssh_host_ed25519_key');
  }

  async start(): Promise<void> {
    if (process.getuid?.() !== 0) {
      throw new Error('the sshd e2e test runs sshd, which needs root (CI runs tests as root)');
    }
    // Debian's sshd wants its privilege separation directory.
    if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
    if (!existsSync(this.hostKey)) {
      const made = await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', this.hostKey]);
      if (made.code !== 0) throw new Error(`ssh-keygen: ${made.stderr}`);
    }
    this.port = await freePort();
    const config = join(this.server.dir, 'sshd_config');
    writeFileSync(
      config,
      [
        'ListenAddress 127.0.0.1',
        `HostKey ${this.hostKey}`,
        `PidFile ${join(this.server.dir, 'sshd.pid')}`,
        'UsePAM no',
        'StrictModes no',
        'PermitRootLogin prohibit-password',
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'AuthenticationMethods publickey',
        `AuthorizedKeysFile ${this.options.authorizedKeysFile ?? 'none'}`,
        `AuthorizedKeysCommand ${this.server.keysCommand} -c ${this.server.conf} %u`,
        'AuthorizedKeysCommandUser nobody',
        ...(this.options.trustedUserCaKeys
          ? [`TrustedUserCAKeys ${this.options.trustedUserCaKeys}`]
          : []),
        ...(this.options.revokedKeys ? [`RevokedKeys ${this.options.revokedKeys}`] : []),
        'LogLevel VERBOSE',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config, '-p', String(this.port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    this.ended = new Promise((resolve) => child.once('close', () => resolve()));
    await waitFor(
      () =>
        new Promise<void>((resolve, reject) => {
          if (child.exitCode !== null) {
            reject(new WaitAborted(`sshd exited ${child.exitCode}:\n${this.output}`));
            return;
          }
          const socket = createConnection({ host: '127.0.0.1', port: this.port });
          socket.once('connect', () => {
            socket.destroy();
            resolve();
          });
          socket.once('error', reject);
        }),
      { what: 'sshd listening', timeoutMs: 10_000 },
    );
  }

  /** Everything sshd logged so far (for failure messages). */
  log(): string {
    return this.output;
  }

  /** `ssh root@127.0.0.1 echo ok` with this private key (and certificate, when given). */
  login(privateKey: string, certificate?: string): Promise<Run> {
    return run('ssh', [
      '-F',
      '/dev/null',
      '-p',
      String(this.port),
      '-i',
      privateKey,
      ...(certificate ? ['-o', `CertificateFile=${certificate}`] : []),
      '-o',
      'IdentitiesOnly=yes',
      '-o',
      'IdentityAgent=none',
      '-o',
      'BatchMode=yes',
      '-o',
      'PreferredAuthentications=publickey',
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'LogLevel=ERROR',
      '-o',
      'ConnectTimeout=10',
      'root@127.0.0.1',
      'echo ok',
    ]);
  }

  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
    }
    await this.ended;
  }
}
