import { once, type EventEmitter } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { waitFor } from '@platform/testing';
import { loadPluginRunnerConfig } from '../config/plugin-runner.config';
import { createRunnerLogger } from './runner-logger';

describe('runner logger', () => {
  it('starts in development mode with a file sink and writes lines to the log file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugin-runner-log-'));
    const logger = createRunnerLogger(
      loadPluginRunnerConfig({ LOG_FILE_SINK_ENABLED: 'true', LOG_DIR: dir }),
    );
    try {
      logger.info('hello from the runner');
      const text = await waitFor(
        () => {
          const written = readDir(dir);
          expect(written).toContain('hello from the runner');
          return written;
        },
        { what: 'the line in the log file' },
      );
      expect(text).toContain('"component":"plugin-runner"');
    } finally {
      // The transport's worker thread lives until its stream is ended.
      const transport = (logger as unknown as Record<symbol, unknown>)[
        pino.symbols.streamSym
      ] as EventEmitter & { end(): void };
      const closed = once(transport, 'close');
      transport.end();
      await closed;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function readDir(dir: string): string {
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('');
}
