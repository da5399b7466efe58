import { execFileSync } from 'node:child_process';
import { createPublicKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type AgentIo } from '../../src/main';
import type { Clock } from '../../src/core/clock';
// The agent's e2e tests run against the real certificate service, started in process with the
// service's own test support (the one place the agent reaches into another project).
/* eslint-disable @nx/enforce-module-boundaries */
import { approveRows } from '../../../certificate-service/test/fixtures/issue';
import { startEnrollApp, sql } from '../../../certificate-service/test/fixtures/enroll';
import { loginAdmin } from '../../../certificate-service/test/support/sessions';
import type { TestApp } from '../../../certificate-service/test/support/test-app';
import { SwtpmDevice } from '../../../certificate-service/test/support/swtpm-device';
import { createTpmStateWithEkCert } from '../../../certificate-service/test/support/swtpm-ek';
import { Sshd, TargetServer } from '../../../certificate-service/test/keyholder/sshd';
import { SshKeyMaker } from '../../../certificate-service/test/fixtures/ssh-keys';
/* eslint-enable @nx/enforce-module-boundaries */

export { createTpmStateWithEkCert, sql, SwtpmDevice, Sshd, SshKeyMaker, TargetServer };

/** The real certificate service, listening on a loopback port, with an admin session. */
export interface AgentServer {
  t: TestApp;
  url: string;
  port: number;
  adminToken: string;
  close(): Promise<void>;
}

export async function startAgentServer(): Promise<AgentServer> {
  const t = await startEnrollApp();
  await t.app.listen(0, '127.0.0.1');
  const port = (t.app.getHttpServer().address() as AddressInfo).port;
  const admin = await loginAdmin(t);
  return {
    t,
    port,
    url: `http://127.0.0.1:${port}`,
    adminToken: admin.accessToken,
    close: () => t.close(),
  };
}

export interface AgentRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The JSON log records written to stdout. */
  records: Record<string, unknown>[];
}

/** Back-off short enough for tests: 20 ms doubling to 200 ms. */
export const FAST_ENV = {
  CERTSVC_AGENT_BACKOFF_BASE_MS: '20',
  CERTSVC_AGENT_BACKOFF_CAP_MS: '200',
};

/** Runs the agent in this process (the launcher's `main`), capturing its output. */
export async function runAgent(
  argv: string[],
  options: { clock?: Clock; env?: Record<string, string> } = {},
): Promise<AgentRun> {
  let stdout = '';
  let stderr = '';
  const io: AgentIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { ...FAST_ENV, ...options.env },
    clock: options.clock,
  };
  const code = await main(argv, io);
  const records = stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, stdout, stderr, records };
}

/** A clock `offsetMs` ahead of the system clock, with real sleeps. */
export function shiftedClock(offsetMs: number): Clock {
  return {
    now: () => new Date(Date.now() + offsetMs),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

export function tempStateDir(): { path: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'agent-e2e-'));
  return {
    path: join(root, 'state'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export const mode = (path: string): number => statSync(path).mode & 0o777;

/** Waits until the device's newest request is pending and returns its id. */
export async function pendingRequestOf(server: AgentServer, serial: string): Promise<string> {
  for (let i = 0; i < 400; i += 1) {
    const rows = await sql<{ id: string }>(
      server.t,
      `SELECT r.id FROM certificate_requests r JOIN devices d ON d.id = r.device_id
        WHERE d.serial = $1 AND r.status = 'pending' ORDER BY r.created_at DESC LIMIT 1`,
      [serial],
    );
    if (rows[0]) return rows[0].id;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no pending request of ${serial}`);
}

/** The admin approves through the API (the built-in CA issues). */
export async function approve(server: AgentServer, requestId: string): Promise<void> {
  const [row] = await approveRows(server.t, server.adminToken, [requestId]);
  if (row?.status !== 'issued') throw new Error(`approval did not issue: ${JSON.stringify(row)}`);
}

/** `openssl verify -CAfile ca-bundle.pem certificate.pem` in the state directory. */
export function opensslVerify(stateDir: string): string {
  return execFileSync('openssl', ['verify', '-CAfile', 'ca-bundle.pem', 'certificate.pem'], {
    cwd: stateDir,
  }).toString();
}

/** The SPKI of a PEM private key and of a PEM certificate, to compare them. */
export function publicKeyOfKeyFile(path: string): string {
  return createPublicKey(readFileSync(path, 'utf8'))
    .export({ format: 'pem', type: 'spki' })
    .toString();
}

export function publicKeyOfCertificate(path: string): string {
  return new X509Certificate(readFileSync(path, 'utf8')).publicKey
    .export({ format: 'pem', type: 'spki' })
    .toString();
}

export function uniqueSerial(): string {
  return `AGENT-${Math.random().toString(16).slice(2, 10).toUpperCase()}`;
}
