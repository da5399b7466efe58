import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  approve,
  pendingRequestOf,
  runAgent,
  startAgentServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

describe('device agent: a log snapshot requested by the admin arrives', () => {
  let server: AgentServer;
  beforeAll(async () => {
    server = await startAgentServer();
  });
  afterAll(() => server.close());

  const auth = () => `Bearer ${server.adminToken}`;

  async function snapshots(serial: string): Promise<{ id: string }[]> {
    const res = await server.t.http
      .get(`/api/v1/devices/${serial}/logs`)
      .set('authorization', auth())
      .expect(200);
    return res.body.items as { id: string }[];
  }

  async function download(serial: string, id: string): Promise<string> {
    const res = await server.t.http
      .get(`/api/v1/devices/${serial}/logs/${id}`)
      .set('authorization', auth())
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      })
      .expect(200);
    return gunzipSync(res.body as Buffer).toString('utf8');
  }

  it('uploads the machine and user log files as gzip once asked, and the state when there is no log file', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const logFile = join(state.path, '..', 'agent.log');
      const enrolling = runAgent([
        ...['enroll', '--server', server.url, '--serial', serial],
        ...['--state-dir', state.path, '--log-file', logFile],
      ]);
      await approve(server, await pendingRequestOf(server, serial));
      expect((await enrolling).code).toBe(0);

      const unasked = await runAgent([
        'run',
        '--once',
        '--state-dir',
        state.path,
        '--log-file',
        logFile,
      ]);
      expect(unasked.records.map((r) => r.msg)).not.toContain('log snapshot uploaded');
      expect(await snapshots(serial)).toEqual([]);

      await server.t.http
        .post(`/api/v1/devices/${serial}/request-logs`)
        .set('authorization', auth())
        .expect(202);
      const asked = await runAgent([
        'run',
        '--once',
        '--state-dir',
        state.path,
        '--log-file',
        logFile,
      ]);
      expect([asked.code, asked.stderr]).toEqual([0, '']);
      expect(asked.records.map((r) => r.msg)).toContain('log snapshot uploaded');
      const [snapshot] = await snapshots(serial);
      const text = await download(serial, snapshot.id);
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string });
      expect(lines.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['key generated', 'certificate installed', 'checked in']),
      );
      // The request is cleared by the upload: the next pass sends nothing.
      const after = await runAgent([
        'run',
        '--once',
        '--state-dir',
        state.path,
        '--log-file',
        logFile,
      ]);
      expect(after.records.map((r) => r.msg)).not.toContain('log snapshot uploaded');
      expect(await snapshots(serial)).toHaveLength(1);

      await server.t.http
        .post(`/api/v1/devices/${serial}/request-logs`)
        .set('authorization', auth())
        .expect(202);
      expect((await runAgent(['run', '--once', '--state-dir', state.path])).code).toBe(0);
      const newest = (await snapshots(serial))[0];
      const bare = await download(serial, newest.id);
      expect(bare).toContain('no --log-file configured: the snapshot holds the agent state only');
      expect(bare).toContain(serial);
    } finally {
      state.remove();
    }
  });
});
