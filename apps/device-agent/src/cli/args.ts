import { hostname, homedir, platform } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AgentExit, ExitCode } from '../core/exit-codes';

export type Command = 'enroll' | 'run' | 'ssh' | 'purposes' | 'status' | 'help';

export interface ParsedArgs {
  command: Command;
  values: Record<string, string | boolean | undefined>;
  /** The words after the command (`purposes request <purpose>`). */
  operands?: readonly string[];
}

const OPTIONS = {
  server: { type: 'string' },
  serial: { type: 'string' },
  'enrollment-token': { type: 'string' },
  platform: { type: 'string' },
  hostname: { type: 'string' },
  wait: { type: 'string' },
  tpm: { type: 'boolean' },
  tcti: { type: 'string' },
  'public-key': { type: 'string' },
  'sshd-krl': { type: 'string' },
  user: { type: 'string' },
  upn: { type: 'string' },
  note: { type: 'string' },
  'tpm-ek-chain': { type: 'string' },
  once: { type: 'boolean' },
  interval: { type: 'string' },
  'state-dir': { type: 'string' },
  'retry-for': { type: 'string' },
  'log-file': { type: 'string' },
  'log-max-bytes': { type: 'string' },
  'log-keep': { type: 'string' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const COMMANDS: readonly Command[] = ['enroll', 'run', 'ssh', 'purposes', 'status', 'help'];

export function parseCommandLine(argv: readonly string[]): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new AgentExit(ExitCode.usage, (error as Error).message);
  }
  const [first, ...rest] = parsed.positionals;
  if (parsed.values.help || !first) return { command: 'help', values: parsed.values };
  if (!COMMANDS.includes(first as Command)) {
    throw new AgentExit(
      ExitCode.usage,
      `unknown command "${first}" (enroll, run, ssh, purposes, status)`,
    );
  }
  if (first === 'purposes') {
    if (rest[0] !== 'list' && rest[0] !== 'request') {
      throw new AgentExit(ExitCode.usage, 'purposes needs `list` or `request <purpose>`');
    }
    if (rest[0] === 'request' && !rest[1]) {
      throw new AgentExit(ExitCode.usage, 'purposes request needs a purpose');
    }
    const allowed = rest[0] === 'list' ? 1 : 2;
    if (rest.length > allowed) {
      throw new AgentExit(ExitCode.usage, `unexpected argument "${rest[allowed]}"`);
    }
    return { command: 'purposes', values: parsed.values, operands: rest };
  }
  if (rest.length > 0) throw new AgentExit(ExitCode.usage, `unexpected argument "${rest[0]}"`);
  return { command: first as Command, values: parsed.values };
}

export function requiredString(values: ParsedArgs['values'], name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AgentExit(ExitCode.usage, `--${name} is required`);
  }
  return value.trim();
}

/** A whole number of seconds >= `min`, as milliseconds; `fallback` seconds when absent. */
export function seconds(
  values: ParsedArgs['values'],
  name: string,
  fallback: number,
  min = 0,
): number {
  const value = values[name];
  if (value === undefined) return fallback * 1000;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value) || n < min) {
    throw new AgentExit(ExitCode.usage, `--${name} must be a number of seconds >= ${min}`);
  }
  return Math.round(n * 1000);
}

export function positiveInteger(
  values: ParsedArgs['values'],
  name: string,
  fallback: number,
): number {
  const value = values[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1) {
    throw new AgentExit(ExitCode.usage, `--${name} must be a positive whole number`);
  }
  return Number(value);
}

/** `--server`: an http(s) URL without credentials, query or fragment. */
export function serverUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AgentExit(
      ExitCode.usage,
      `--server "${value}" is not a URL (e.g. https://certs.example.com)`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AgentExit(ExitCode.usage, `--server must be an http:// or https:// URL`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new AgentExit(
      ExitCode.usage,
      `--server must not carry credentials, a query or a fragment`,
    );
  }
  return url.toString().replace(/\/+$/, '');
}

export function defaultStateDir(env: NodeJS.ProcessEnv): string {
  if (env.CERTSVC_AGENT_STATE_DIR) return env.CERTSVC_AGENT_STATE_DIR;
  if (process.getuid?.() === 0) return '/var/lib/certsvc-agent';
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'certsvc-agent');
}

export function defaultPlatform(): string {
  const os = platform();
  return os === 'darwin' ? 'macos' : os === 'win32' ? 'windows' : os;
}

export function defaultHostname(): string {
  return hostname();
}
