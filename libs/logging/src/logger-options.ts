import type { LogFn, Logger, LoggerOptions, TransportTargetOptions } from 'pino';
import { join } from 'node:path';
import { LOG_FILE_MODE, prepareLogFileSink } from './log-file-sink';
import { escapeControlCharacters } from './control-characters';
import { loggableError } from './logged-error';
import { redactSecrets } from './redact-secrets';
import {
  isSecretQueryParameter,
  REDACTED,
  scrubSecretText,
  SECRET_HEADER_NAMES,
} from './secret-fields';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * fast-redact paths applied when a line is serialized: secret headers of the request and
 * response that pino-http binds to every line of a request. Fields anywhere else are handled
 * by `redactSecrets` (SECRET_FIELD_WORDS at any depth).
 */
export const DEFAULT_REDACT_PATHS = [
  ...SECRET_HEADER_NAMES.flatMap((name) => [`req.headers["${name}"]`, `res.headers["${name}"]`]),
  '*.password',
  '*.token',
  '*.secret',
];

/** `err` as a LoggedError; pino-http hands over its own serialization with the original in `raw`. */
export function serializeError(value: unknown): unknown {
  const raw =
    typeof value === 'object' && value !== null && 'raw' in value
      ? (value as { raw: unknown }).raw
      : value;
  return loggableError(raw);
}

/**
 * A request as pino-http serialized it (`{id, method, url, query, headers, ...}`), without the
 * secrets its URL may carry: the `code` and `state` of a single sign-on callback, token
 * parameters. Applied to every line bound to a request — the request line, refusals, errors —
 * before any sink sees it.
 */
export function serializeRequest(request: unknown): unknown {
  if (typeof request !== 'object' || request === null) return request;
  const { url, query } = request as { url?: unknown; query?: unknown };
  const safe: Record<string, unknown> = { ...(request as Record<string, unknown>) };
  if (typeof url === 'string') safe.url = scrubSecretText(url);
  if (typeof query === 'object' && query !== null) {
    safe.query = Object.fromEntries(
      Object.entries(query).map(([name, value]) => [
        name,
        isSecretQueryParameter(name) ? REDACTED : value,
      ]),
    );
  }
  return safe;
}

/**
 * The line's message as every sink shows it: secret-shaped text scrubbed, control characters
 * escaped (a `\n` in a message — a plugin's log line or error text, a client's input quoted
 * in a refusal — cannot start a line that looks like the service's own in the pretty sink;
 * JSON sinks escape them anyway). Applied after printf-style formatting.
 */
export function serializeMessage(message: unknown): unknown {
  return typeof message === 'string' ? escapeControlCharacters(scrubSecretText(message)) : message;
}

/** `logger.error(err)` takes the error's message as the line's message: use the safe one. */
function logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn): void {
  const [first, second, ...rest] = args as unknown[];
  if (first instanceof Error && typeof second !== 'string') {
    method.apply(this, [first, loggableError(first).message, ...rest] as Parameters<LogFn>);
    return;
  }
  method.apply(this, args);
}

export interface LoggerSettings {
  level: LogLevel;
  /** One JSON object per line (production) or human-readable colour text (development). */
  json: boolean;
  /** When set, lines are also written to rotated files in this directory. */
  fileSink?: { directory: string; fileName: string; maxFiles?: number; maxSize?: string };
  redactPaths?: string[];
  /** Fields stamped on every line (component name, ...). */
  base?: Record<string, string>;
  /** Fields computed for each line (the active trace and span ids). Keep it cheap. */
  mixin?: () => Record<string, unknown>;
}

/**
 * Pino options shared by every process: level, redaction (secret fields at any depth, errors
 * without SQL parameters or driver messages, secret-shaped text), encoder and file sink (its
 * directory is created 0700 here; files are created 0600).
 */
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
    prepareLogFileSink(settings.fileSink.directory, settings.fileSink.fileName);
    targets.push({
      target: 'pino-roll',
      level: settings.level,
      options: {
        file: join(settings.fileSink.directory, settings.fileSink.fileName),
        frequency: 'daily',
        size: settings.fileSink.maxSize ?? '50m',
        mkdir: true,
        mode: LOG_FILE_MODE,
        limit: { count: settings.fileSink.maxFiles ?? 7 },
      },
    });
  }
  return {
    level: settings.level,
    base: settings.base ?? {},
    ...(settings.mixin ? { mixin: settings.mixin } : {}),
    redact: { paths: settings.redactPaths ?? DEFAULT_REDACT_PATHS, censor: REDACTED },
    serializers: { err: serializeError, msg: serializeMessage },
    hooks: { logMethod },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    // pino refuses a level formatter together with transport targets (they receive numeric
    // levels, which pino-pretty renders anyway); label levels only for in-process output.
    ...(targets.length > 0
      ? { transport: { targets }, formatters: { log: redactSecrets } }
      : { formatters: { level: (label: string) => ({ level: label }), log: redactSecrets } }),
  };
}
