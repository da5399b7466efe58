import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPluginRunnerConfig } from '../config/plugin-runner.config';
import { createRunnerLogger } from './runner-logger';

describe('runner logger', () => {
  it('starts in development mode with a file sink and writes lines to the log file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugin-runner-log-'));
    try {
      const logger = createRunnerLogger(
        loadPluginRunnerConfig({ LOG_FILE_SINK_ENABLED: 'true', LOG_DIR: dir }),
      );
      logger.info('hello from the runner');
      await new Promise<void>((resolve) => logger.flush(() => resolve()));
      const deadline = Date.now() + 5000;
      let text = '';
      while (Date.now() < deadline && !text.includes('hello from the runner')) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        text = readDir(dir);
      }
      expect(text).toContain('hello from the runner');
      expect(text).toContain('"component":"plugin-runner"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function readDir(dir: string): string {
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('');
}
