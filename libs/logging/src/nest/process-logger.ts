import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { buildLoggerOptions, type LoggerSettings } from '../logger-options';

export type ProcessLogger = Logger;

/**
 * The one pino logger of a process (API or worker), built from the shared options. A
 * `destination` replaces stdout and the file sink: tests capture the JSON lines with it.
 * Without a file sink, lines are written to stdout in-process and synchronously: Nest ends a
 * process stopped by SIGTERM by raising the signal again, which would drop lines still
 * buffered (or held by a transport thread).
 */
export function createProcessLogger(
  settings: LoggerSettings,
  destination?: DestinationStream,
): ProcessLogger {
  if (destination) {
    return pino(buildLoggerOptions({ ...settings, json: true, fileSink: undefined }), destination);
  }
  if (!settings.json && !settings.fileSink) {
    return pino(
      buildLoggerOptions({ ...settings, json: true }),
      pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', singleLine: true, sync: true }),
    );
  }
  if (!settings.fileSink) {
    return pino(buildLoggerOptions(settings), pino.destination({ dest: 1, sync: true }));
  }
  return pino(buildLoggerOptions(settings));
}
