import { RotatingFile } from './rotating-file';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Which half of the agent logs: the machine agent, or the per-user half (separate files). */
export type LogHalf = 'machine' | 'user';

export interface LoggerOptions {
  /** `--verbose`: human-readable console lines at debug instead of JSON at info. */
  readonly verbose: boolean;
  /** `--log-file`: JSON lines at info (debug with --verbose) also go to this rotated file. */
  readonly file?: RotatingFile;
  readonly half: LogHalf;
  /** Where console lines go (stdout; tests capture them). */
  readonly write: (line: string) => void;
  readonly now: () => Date;
}

export type LogFields = Record<string, string | number | boolean | null | undefined>;

/**
 * The agent's logger (docs/agent.md, "Logs"): one JSON object a line
 * `{time, level, half, msg, ...fields}`. Secrets and keys are never passed to it.
 */
export class AgentLogger {
  private readonly threshold: number;

  constructor(private readonly options: LoggerOptions) {
    this.threshold = RANK[options.verbose ? 'debug' : 'info'];
  }

  debug(msg: string, fields: LogFields = {}): void {
    this.log('debug', msg, fields);
  }
  info(msg: string, fields: LogFields = {}): void {
    this.log('info', msg, fields);
  }
  warn(msg: string, fields: LogFields = {}): void {
    this.log('warn', msg, fields);
  }
  error(msg: string, fields: LogFields = {}): void {
    this.log('error', msg, fields);
  }

  close(): void {
    this.options.file?.close();
  }

  private log(level: LogLevel, msg: string, fields: LogFields): void {
    if (RANK[level] < this.threshold) return;
    const time = this.options.now().toISOString();
    const record = { time, level, half: this.options.half, msg, ...fields };
    const json = `${JSON.stringify(record)}\n`;
    this.options.file?.write(json);
    if (!this.options.verbose) {
      this.options.write(json);
      return;
    }
    const extra = Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${String(value)}`)
      .join(' ');
    this.options.write(
      `${time} ${level.toUpperCase().padEnd(5)} ${msg}${extra ? ` ${extra}` : ''}\n`,
    );
  }
}

/** The user half's file beside the machine half's: `agent.log` -> `agent-user.log`. */
export function userHalfPath(machinePath: string): string {
  const dot = machinePath.lastIndexOf('.');
  const slash = machinePath.lastIndexOf('/');
  return dot > slash + 1
    ? `${machinePath.slice(0, dot)}-user${machinePath.slice(dot)}`
    : `${machinePath}-user`;
}
