import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { waitFor } from '@platform/testing';
import { check, healthClient } from './runner-harness';

const WORKSPACE = join(__dirname, '../../..');
const MAIN = join(__dirname, '../src/main.ts');

/** Runs src/main.ts as its own process, as `node main.js` would run in production. */
function spawnRunner(env: Record<string, string>): {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', MAIN], {
    cwd: WORKSPACE,
    env: {
      PATH: process.env.PATH ?? '',
      SWC_NODE_PROJECT: join(WORKSPACE, 'tsconfig.base.json'),
      APP_ENV: 'production',
      LOG_FILE_SINK_ENABLED: 'false',
      ...env,
    },
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

function servingLine(output: () => string, timeoutMs = 20000): Promise<Record<string, number>> {
  return waitFor(
    () => {
      const line = output()
        .split('\n')
        .find((l) => l.includes('"plugin-runner serving"'));
      if (!line) throw new Error(`runner output so far:\n${output()}`);
      return JSON.parse(line) as Record<string, number>;
    },
    { timeoutMs, what: 'the "plugin-runner serving" line' },
  );
}

describe('plugin runner process', () => {
  it('serves HTTP and gRPC health, then exits 0 on SIGTERM after a graceful stop', async () => {
    const runner = spawnRunner({
      PLUGIN_RUNNER_HOST: '127.0.0.1',
      PLUGIN_RUNNER_PORT: '0',
      PLUGIN_RUNNER_GRPC_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: '0',
    });
    try {
      const ports = await servingLine(runner.output);
      const health = await fetch(`http://127.0.0.1:${ports.http_port}/health`);
      expect(health.status).toBe(200);
      const client = healthClient(ports.grpc_port);
      expect(await check(client, 'plugin-runner')).toEqual({ status: 'SERVING' });
      client.close();

      runner.child.kill('SIGTERM');
      expect(await runner.exited).toBe(0);
      expect(runner.output()).toContain('"plugin-runner stopped"');
    } finally {
      runner.child.kill('SIGKILL');
    }
  }, 30000);

  it('refuses to start with an invalid configuration and names the problem', async () => {
    const runner = spawnRunner({ PLUGIN_RUNNER_PORT: 'seventy' });
    expect(await runner.exited).toBe(1);
    expect(runner.output()).toContain('PLUGIN_RUNNER_PORT must be an integer');
  }, 30000);
});
