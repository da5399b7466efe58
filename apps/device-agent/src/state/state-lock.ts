import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AgentExit, ExitCode } from '../core/exit-codes';

/**
 * One agent process per state directory: `<state>/.lock` holds the pid of the process using
 * it (created with O_EXCL). A lock whose process is gone (a crash, a kill -9) is taken over.
 * Another live process: exit 6 naming its pid.
 */
export class StateLock {
  private constructor(private readonly path: string) {}

  static acquire(stateDir: string): StateLock {
    const path = join(stateDir, '.lock');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        return new StateLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = Number(readSafely(path));
        if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
          throw new AgentExit(
            ExitCode.state,
            `another certsvc-agent (pid ${holder}) is using ${stateDir}; stop it or wait`,
          );
        }
        rmSync(path, { force: true }); // stale: its process is gone
      }
    }
    throw new AgentExit(ExitCode.state, `cannot lock ${stateDir}`);
  }

  release(): void {
    if (Number(readSafely(this.path)) === process.pid) rmSync(this.path, { force: true });
  }
}

function readSafely(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
