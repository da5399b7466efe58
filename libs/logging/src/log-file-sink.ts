import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';

/** Log files hold request details: readable by the service's user only. */
export const LOG_FILE_MODE = 0o600;
export const LOG_DIRECTORY_MODE = 0o700;

/**
 * Creates the sink's directory (0700) when missing and narrows files an earlier version left
 * readable (`<name>.*<ext>`, the rotated files of pino-roll) to 0600. New files are opened
 * with LOG_FILE_MODE by the sink itself.
 */
export function prepareLogFileSink(directory: string, fileName: string): void {
  mkdirSync(directory, { recursive: true, mode: LOG_DIRECTORY_MODE });
  const extension = extname(fileName);
  const stem = fileName.slice(0, fileName.length - extension.length);
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.startsWith(`${stem}.`) && entry.name.endsWith(extension)) {
      chmodSync(join(directory, entry.name), LOG_FILE_MODE);
    }
  }
}
