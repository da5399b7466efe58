import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AgentServer } from './agent-harness';

const run = promisify(execFile);
const CLI = join(__dirname, '../../../cli/bin/platform.js');

/**
 * `platform requests approve <id>` — the administrators' CLI (apps/cli) run as a process with a
 * certificate-service service-account token from the environment, as a pipeline would.
 */
export class CliApprover {
  private token?: string;

  constructor(private readonly server: AgentServer) {}

  async approve(requestId: string): Promise<string> {
    const token = await this.serviceAccountToken();
    const { stdout } = await run(
      process.execPath,
      [CLI, 'requests', 'approve', requestId, '--json'],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PLATFORM_CERTIFICATES_URL: this.server.url,
          PLATFORM_CERTIFICATES_TOKEN: token,
        },
        timeout: 60_000,
      },
    );
    return stdout;
  }

  private async serviceAccountToken(): Promise<string> {
    if (this.token) return this.token;
    const res = await this.server.t.http
      .post('/api/v1/service-accounts')
      .set('authorization', `Bearer ${this.server.adminToken}`)
      .send({ name: `agent-e2e-${randomBytes(3).toString('hex')}` })
      .expect(201);
    this.token = (res.body as { token: string }).token;
    return this.token;
  }
}
