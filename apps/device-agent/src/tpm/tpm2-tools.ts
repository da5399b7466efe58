import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { AgentExit, ExitCode } from '../core/exit-codes';

const run = promisify(execFile);

/**
 * tpm2-tools run in one working directory (the state directory's `tpm/`). `tcti` overrides
 * `TPM2TOOLS_TCTI` (default: what the environment says, else the tools' default device).
 * Transient objects are flushed before each command (a TPM holds only a few).
 */
export class Tpm2Tools {
  constructor(
    private readonly cwd: string,
    private readonly tcti?: string,
  ) {}

  async run(command: string, ...args: string[]): Promise<string> {
    const env = { ...process.env, ...(this.tcti ? { TPM2TOOLS_TCTI: this.tcti } : {}) };
    const options = { cwd: this.cwd, env, timeout: 60_000 };
    try {
      if (command !== 'tpm2_flushcontext') await run('tpm2_flushcontext', ['-t'], options);
      return (await run(command, args, options)).stdout;
    } catch (error) {
      const e = error as { code?: string; stderr?: string; message: string };
      if (e.code === 'ENOENT') {
        throw new AgentExit(ExitCode.state, `--tpm needs tpm2-tools (${command} not found)`);
      }
      const detail = (e.stderr ?? e.message).trim().split('\n').slice(-1)[0];
      throw new AgentExit(ExitCode.state, `TPM: ${command} failed: ${detail}`);
    }
  }
}
