import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { AgentExit, ExitCode } from '../core/exit-codes';

/** Names of the files in the state directory (docs/agent.md, "State directory"). */
export const StateFile = {
  key: 'key.pem',
  /** The long-lived continuity key of a software-key device (docs/agent.md). */
  continuityKey: 'continuity-key.pem',
  requestId: 'request-id',
  agentSecret: 'agent-secret',
  enrollmentToken: 'enrollment-token',
  certificate: 'certificate.pem',
  caBundle: 'ca-bundle.pem',
  /** JSON: server, serial, state, certificate facts, ETag, last check-in. */
  status: 'agent-state.json',
  renewalKey: 'renewal-key.pem',
  renewalRequestId: 'renewal-request-id',
  renewalAgentSecret: 'renewal-agent-secret',
  renewalCertificate: 'renewal-certificate.pem',
  renewalCaBundle: 'renewal-ca-bundle.pem',
  /** The last CRLs read, used until their next_update (docs/agent.md, "Revocation"). */
  crlCache: 'crl-cache.json',
} as const;

export type StateFileName = (typeof StateFile)[keyof typeof StateFile];

/**
 * The agent's state directory: 0700, every file 0600, each written whole (temporary file in the
 * same directory, fsync, rename), so a crash leaves either the old or the new content.
 */
export class StateDir {
  constructor(readonly path: string) {}

  /**
   * Creates the directory 0700 (tightening an existing one); refuses a symlink, a file and a
   * directory of another user.
   */
  ensure(): void {
    try {
      mkdirSync(this.path, { recursive: true, mode: 0o700 });
      const stat = lstatSync(this.path);
      if (!stat.isDirectory()) {
        throw new AgentExit(ExitCode.state, `state directory ${this.path} is not a directory`);
      }
      const uid = process.getuid?.();
      if (uid !== undefined && stat.uid !== uid) {
        throw new AgentExit(
          ExitCode.state,
          `state directory ${this.path} belongs to another user (uid ${stat.uid})`,
        );
      }
      if ((stat.mode & 0o777) !== 0o700) chmodSync(this.path, 0o700);
    } catch (error) {
      if (error instanceof AgentExit) throw error;
      throw new AgentExit(
        ExitCode.state,
        `cannot use state directory ${this.path}: ${(error as Error).message}`,
      );
    }
  }

  file(name: string): string {
    return join(this.path, name);
  }

  read(name: string): string | null {
    const bytes = this.readBytes(name);
    return bytes === null ? null : bytes.toString('utf8');
  }

  readBytes(name: string): Buffer | null {
    try {
      return readFileSync(this.file(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new AgentExit(
        ExitCode.state,
        `cannot read ${this.file(name)}: ${(error as Error).message}`,
      );
    }
  }

  has(name: string): boolean {
    return this.read(name) !== null;
  }

  write(name: string, content: string | Buffer): void {
    const target = this.file(name);
    const temporary = join(this.path, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const fd = openSync(temporary, 'wx', 0o600);
      try {
        writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, target);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw new AgentExit(ExitCode.state, `cannot write ${target}: ${(error as Error).message}`);
    }
  }

  /** Moves `from` over `to` (atomic within the directory); nothing when `from` is gone. */
  promote(from: string, to: string): void {
    try {
      renameSync(this.file(from), this.file(to));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  remove(name: string): void {
    rmSync(this.file(name), { force: true });
  }
}
