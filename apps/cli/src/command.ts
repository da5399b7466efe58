import type { ParseArgsConfig } from 'node:util';
import type { CredentialStore } from './config/store';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  env: NodeJS.ProcessEnv;
}

export interface Context {
  io: Io;
  env: NodeJS.ProcessEnv;
  store: CredentialStore;
  /** `--json`: one JSON document on stdout, nothing else there. */
  json: boolean;
  /** A line on stdout. */
  out(line: string): void;
  /** A line on stderr (progress, notes). */
  note(line: string): void;
}

export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface Command {
  /** Words that name it: ['requests', 'approve']. */
  path: string[];
  summary: string;
  /** The whole `--help` text after the usage line. */
  help: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  positionals: { min: number; max?: number };
  /** The values of the first argument, for shell completion (login: findings, certificates). */
  argValues?: readonly string[];
  /** Values of options that take one of a list, for shell completion. */
  optionValues?: Record<string, readonly string[]>;
  run(ctx: Context, values: OptionValues, positionals: string[]): Promise<number>;
}

export function stringOption(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
