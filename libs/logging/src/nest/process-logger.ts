import pino, { type DestinationStream, type Logger } from 'pino';
import { buildLoggerOptions, type LoggerSettings } from '../logger-options';

export type ProcessLogger = Logger;

/**
 * The one pino logger of a process (API or worker), built from the shared options. A
 * `destination` replaces stdout and the file sink: tests capture the JSON lines with it.
 */
export function createProcessLogger(
  settings: LoggerSettings,
  destination?: DestinationStream,
): ProcessLogger {
  if (destination) {
    return pino(buildLoggerOptions({ ...settings, json: true, fileSink: undefined }), destination);
  }
  return pino(buildLoggerOptions(settings));
}
