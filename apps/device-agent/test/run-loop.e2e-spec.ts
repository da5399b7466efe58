import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  pendingRequestOf,
  runAgent,
  startAgentServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';
import { spawnAgent, until } from './support/agent-process';
import { SwitchableProxy } from './support/switchable-proxy';

describe('device agent: the run loop as a process', () => {
  let server: AgentServer;
  let proxy: SwitchableProxy;
  beforeAll(async () => {
    server = await startAgentServer();
    proxy = await SwitchableProxy.create(server.port);
    await proxy.up();
  });
  afterAll(async () => {
    await proxy.down();
    await server.close();
  });

  it('checks in every interval, outlives a stopped service, and logs JSON to --log-file', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const enrolling = runAgent([
        'enroll',
        '--server',
        proxy.url,
        '--serial',
        serial,
        '--state-dir',
        state.path,
      ]);
      await approve(server, await pendingRequestOf(server, serial));
      expect((await enrolling).code).toBe(0);

      const logFile = join(state.path, '..', 'agent.log');
      const agent = spawnAgent([
        'run',
        '--state-dir',
        state.path,
        '--interval',
        '1',
        '--retry-for',
        '0.2',
        '--log-file',
        logFile,
      ]);
      let out = '';
      agent.child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const count = (msg: string) => {
        if (agent.child.exitCode !== null) throw new Error(`the agent exited: ${out}`);
        return out.split('\n').filter((l) => l.includes(`"msg":"${msg}"`)).length;
      };
      try {
        await until(() => count('checked in') >= 2, 'two check-ins');
        await proxy.down();
        await until(() => count('pass failed, next pass at the interval') >= 2, 'failed passes');
        const before = count('checked in');
        await proxy.up();
        await until(() => count('checked in') > before, 'a check-in after the service is back');
        expect(agent.child.exitCode).toBeNull();
      } finally {
        agent.child.kill('SIGTERM');
        await agent.done;
      }
      const records = readFileSync(logFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { msg: string; half: string });
      expect(records.map((r) => r.msg)).toEqual(
        expect.arrayContaining(['checked in', 'pass failed, next pass at the interval']),
      );
      expect(new Set(records.map((r) => r.half))).toEqual(new Set(['machine']));
    } finally {
      state.remove();
    }
  });
});
