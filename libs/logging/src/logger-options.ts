import type { LoggerOptions, TransportTargetOptions } from 'pino';
import { join } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Header and body paths whose values must never reach a log line. */
export const DEFAULT_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-agent-secret"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.new_password',
  '*.current_password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.api_key',
  '*.secret',
];

export interface LoggerSettings {
  level: LogLevel;
  /** One JSON object per line (production) or human-readable colour text (development). */
  json: boolean;
  /** When set, lines are also written to rotated files in this directory. */
  fileSink?: { directory: string; fileName: string; maxFiles?: number; maxSize?: string };
  redactPaths?: string[];
  /** Fields stamped on every line (component name, ...). */
  base?: Record<string, string>;
}

/** Pino options shared by every process: level, redaction, encoder and optional file sink. */
export function buildLoggerOptions(settings: LoggerSettings): LoggerOptions {
  const targets: TransportTargetOptions[] = [];
  if (!settings.json || settings.fileSink) {
    targets.push(
      settings.json
        ? { target: 'pino/file', level: settings.level, options: { destination: 1 } }
        : {
            target: 'pino-pretty',
            level: settings.level,
            options: {
              destination: 1,
              colorize: true,
              translateTime: 'SYS:HH:MM:ss.l',
              singleLine: true,
            },
          },
    );
  }
  if (settings.fileSink) {
    targets.push({
      target: 'pino-roll',
      level: settings.level,
      options: {
        file: join(settings.fileSink.directory, settings.fileSink.fileName),
        frequency: 'daily',
        size: settings.fileSink.maxSize ?? '50m',
        mkdir: true,
        limit: { count: settings.fileSink.maxFiles ?? 7 },
      },
    });
  }
  return {
    level: settings.level,
    base: settings.base ?? {},
    redact: { paths: settings.redactPaths ?? DEFAULT_REDACT_PATHS, censor: '[redacted]' },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    // pino refuses a level formatter together with transport targets (they receive numeric
    // levels, which pino-pretty renders anyway); label levels only for in-process output.
    ...(targets.length > 0
      ? { transport: { targets } }
      : { formatters: { level: (label: string) => ({ level: label }) } }),
  };
}
