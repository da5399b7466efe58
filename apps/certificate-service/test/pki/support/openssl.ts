import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OpensslResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A temp directory with a real `openssl` CLI run inside it. */
export class OpensslWorkspace {
  readonly dir = mkdtempSync(join(tmpdir(), 'pki-openssl-'));

  path(name: string): string {
    return join(this.dir, name);
  }

  write(name: string, data: Buffer | string): string {
    writeFileSync(this.path(name), data);
    return this.path(name);
  }

  read(name: string): Buffer {
    return readFileSync(this.path(name));
  }

  run(args: readonly string[]): OpensslResult {
    const result = spawnSync('openssl', args, { cwd: this.dir, encoding: 'utf8' });
    return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
  }

  /** Runs openssl and fails the test with its stderr when it exits non-zero. */
  ok(args: readonly string[]): string {
    const result = this.run(args);
    if (result.status !== 0) {
      throw new Error(`openssl ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
    }
    return result.stdout;
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
