import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../..');

/** Runs a process that logs one line and is then killed by SIGTERM at once. */
function logThenTerminate(settings: string): string {
  const script = `
    const { createProcessLogger } = require('./libs/logging/src/nest/process-logger');
    createProcessLogger(${settings}).info('last words before the signal');
    process.kill(process.pid, 'SIGTERM');
  `;
  const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, SWC_NODE_PROJECT: 'tools/test/swc-node-project.json' },
    encoding: 'utf8',
  });
  expect(run.signal).toBe('SIGTERM');
  return run.stdout;
}

describe('createProcessLogger', () => {
  it('writes coloured developer text before a signal ends the process', () => {
    expect(logThenTerminate("{ level: 'info', json: false }")).toContain(
      'last words before the signal',
    );
  });

  it('writes JSON lines before a signal ends the process', () => {
    const line = JSON.parse(logThenTerminate("{ level: 'info', json: true }").trim()) as {
      level: string;
      msg: string;
    };
    expect(line).toMatchObject({ level: 'info', msg: 'last words before the signal' });
  });
});
