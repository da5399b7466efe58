import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { buildLoggerOptions, type LoggerSettings } from '../logger-options';

export type ProcessLogger = Logger;

/**
 * The one pino logger of a process (API or worker), built from the shared options. A
 * `destination` replaces stdout and the file sink: tests capture the JSON lines with it.
 * Coloured text without a file sink is written in-process and synchronously, so the lines
 * of a process stopped by a signal are not lost with a transport thread.
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
  return pino(buildLoggerOptions(settings));
}
