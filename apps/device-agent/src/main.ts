import { ApiError } from './api/api-errors';
import {
  defaultHostname,
  defaultPlatform,
  defaultStateDir,
  parseCommandLine,
  positiveInteger,
  requiredString,
  seconds,
  serverUrl,
  type ParsedArgs,
} from './cli/args';
import { USAGE } from './cli/usage';
import { DEFAULT_BACKOFF } from './core/backoff';
import { systemClock, type Clock } from './core/clock';
import type { AgentContext } from './core/context';
import { AgentExit, ExitCode, type ExitCodeValue } from './core/exit-codes';
import type { TpmOptions } from './enroll/device-key';
import { enrollCommand } from './enroll/enroll-command';
import { AgentLogger, userHalfPath } from './log/logger';
import { RotatingFile } from './log/rotating-file';
import { runCommand } from './run/run-command';
import { sshCommand } from './ssh/ssh-command';
import { checkRequest, purposesCommand } from './purposes/purposes-command';
import { StateDir, StateFile } from './state/state-dir';
import { StateLock } from './state/state-lock';

/** Where the agent writes and what it reads; tests replace them. */
export interface AgentIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly clock?: Clock;
  readonly random?: () => number;
}

const processIo = (): AgentIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});

/** Runs one command; never throws: every outcome is an exit code (docs/agent.md). */
export async function main(argv: readonly string[], io: AgentIo = processIo()): Promise<number> {
  let logger: AgentLogger | undefined;
  let userLogger: AgentLogger | undefined;
  let verbose = false;
  try {
    const args = parseCommandLine(argv);
    verbose = args.values.verbose === true;
    if (args.command === 'help') {
      io.stdout(USAGE);
      return ExitCode.ok;
    }
    const ctx = context(args, io);
    logger = ctx.logger;
    userLogger = ctx.userLogger;
    const dir = new StateDir(
      typeof args.values['state-dir'] === 'string'
        ? args.values['state-dir']
        : defaultStateDir(io.env),
    );
    // Read-only commands take no lock (a `run` loop may hold it).
    if (
      args.command === 'status' ||
      (args.command === 'purposes' && args.operands?.[0] === 'list')
    ) {
      return await dispatch(args, ctx, dir, io);
    }
    checkRequired(args); // before the state directory is touched
    dir.ensure();
    const lock = StateLock.acquire(dir.path);
    try {
      return await dispatch(args, ctx, dir, io);
    } finally {
      lock.release();
    }
  } catch (error) {
    return report(error, io, logger, verbose);
  } finally {
    logger?.close();
    userLogger?.close();
  }
}

async function dispatch(
  args: ParsedArgs,
  ctx: AgentContext,
  dir: StateDir,
  io: AgentIo,
): Promise<ExitCodeValue> {
  const { values } = args;
  const platform = typeof values.platform === 'string' ? values.platform : defaultPlatform();
  const hostname = typeof values.hostname === 'string' ? values.hostname : defaultHostname();
  switch (args.command) {
    case 'enroll': {
      const server = serverUrl(requiredString(values, 'server'));
      const serial = requiredString(values, 'serial');
      const enrollmentToken =
        typeof values['enrollment-token'] === 'string' ? values['enrollment-token'] : undefined;
      return enrollCommand(ctx, dir, {
        server,
        serial,
        platform,
        hostname,
        enrollmentToken,
        waitMs: seconds(values, 'wait', 0),
        tpm: values.tpm ? tpmOptions(values) : undefined,
      });
    }
    case 'run':
      return runCommand(ctx, dir, {
        once: values.once === true,
        intervalMs: seconds(values, 'interval', 3600, 1),
        platform,
        hostname,
        tpm: tpmOptions(values),
        sshdKrl:
          typeof values['sshd-krl'] === 'string' ? requiredString(values, 'sshd-krl') : undefined,
      });
    case 'ssh':
      return sshCommand(ctx, dir, {
        publicKeyFile: requiredString(values, 'public-key'),
        waitMs: seconds(values, 'wait', 0),
      });
    case 'purposes':
      return purposesCommand(ctx, dir, {
        action: args.operands?.[0],
        purpose: args.operands?.[1],
        user: optionalString(values, 'user'),
        upn: optionalString(values, 'upn'),
        note: optionalString(values, 'note'),
        publicKeyFile: optionalString(values, 'public-key'),
        print: io.stdout,
      });
    case 'status': {
      const text = dir.read(StateFile.status);
      if (text === null) throw new AgentExit(ExitCode.state, `no agent state in ${dir.path}`);
      io.stdout(text);
      return ExitCode.ok;
    }
    case 'help':
      io.stdout(USAGE);
      return ExitCode.ok;
  }
}

function context(args: ParsedArgs, io: AgentIo): AgentContext {
  const { values } = args;
  const clock = io.clock ?? systemClock(envNumber(io.env, 'CERTSVC_AGENT_CLOCK_OFFSET_SECONDS', 0));
  const logger = new AgentLogger({
    verbose: values.verbose === true,
    file: logFile(values, typeof values['log-file'] === 'string' ? values['log-file'] : undefined),
    half: 'machine',
    write: io.stdout,
    now: () => clock.now(),
  });
  const userLogger = new AgentLogger({
    verbose: values.verbose === true,
    file: logFile(
      values,
      typeof values['log-file'] === 'string' ? userHalfPath(values['log-file']) : undefined,
    ),
    half: 'user',
    write: io.stdout,
    now: () => clock.now(),
  });
  return {
    clock,
    random: io.random ?? Math.random,
    logger,
    userLogger,
    logFiles:
      typeof values['log-file'] === 'string'
        ? [values['log-file'], userHalfPath(values['log-file'])]
        : [],
    backoff: {
      baseMs: envNumber(io.env, 'CERTSVC_AGENT_BACKOFF_BASE_MS', DEFAULT_BACKOFF.baseMs),
      capMs: envNumber(io.env, 'CERTSVC_AGENT_BACKOFF_CAP_MS', DEFAULT_BACKOFF.capMs),
    },
    retryForMs: seconds(values, 'retry-for', 3600),
  };
}

function logFile(values: ParsedArgs['values'], path: string | undefined): RotatingFile | undefined {
  if (path === undefined) return undefined;
  return new RotatingFile(
    path,
    positiveInteger(values, 'log-max-bytes', 5 * 1024 * 1024),
    positiveInteger(values, 'log-keep', 3),
  );
}

function checkRequired(args: ParsedArgs): void {
  if (args.command === 'enroll') {
    serverUrl(requiredString(args.values, 'server'));
    requiredString(args.values, 'serial');
  }
  if (args.command === 'ssh') requiredString(args.values, 'public-key');
  if (args.command === 'purposes' && args.operands?.[0] === 'request') {
    checkRequest({
      purpose: args.operands[1],
      user: optionalString(args.values, 'user'),
      upn: optionalString(args.values, 'upn'),
      publicKeyFile: optionalString(args.values, 'public-key'),
    });
  }
}

function optionalString(values: ParsedArgs['values'], name: string): string | undefined {
  return values[name] === undefined ? undefined : requiredString(values, name);
}

function tpmOptions(values: ParsedArgs['values']): TpmOptions {
  const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
  return { tcti: text('tcti'), ekChainFile: text('tpm-ek-chain') };
}

function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new AgentExit(ExitCode.usage, `${name} must be a number`);
  return n;
}

function report(
  error: unknown,
  io: AgentIo,
  logger: AgentLogger | undefined,
  verbose: boolean,
): number {
  let code: number = ExitCode.internal;
  let message: string;
  if (error instanceof AgentExit) {
    code = error.code;
    message = error.message;
  } else if (error instanceof ApiError) {
    code = ExitCode.refused;
    message = `the service refused: ${error.status} ${error.code}: ${error.message}`;
  } else {
    message = `internal error: ${(error as Error)?.message ?? String(error)}`;
  }
  logger?.error(message, {
    exit_code: code,
    stack:
      verbose && error instanceof Error && !(error instanceof AgentExit) ? error.stack : undefined,
  });
  io.stderr(`certsvc-agent: ${message}\n`);
  if (code === ExitCode.usage) io.stderr('Try `certsvc-agent --help`.\n');
  return code;
}
