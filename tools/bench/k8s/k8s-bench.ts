/**
 * Kubernetes credential broker benchmark (not part of `npm test`): credentials per second
 * through `POST /api/v1/k8s/credential` over mutual TLS with 16 concurrent clients.
 *
 *   bash tools/stack/stack.sh up && eval "$(bash tools/stack/stack.sh env)"
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/k8s/k8s-bench.ts
 *
 * Boots the certificate-service API with its broker listener in this process on a fresh
 * database of the stack's PostgreSQL; setup (not measured): an admin registers a cluster with
 * three group rules, one device enrolls, gets `user_mtls`, files `POST /api/v1/enroll/user` and
 * is approved — the user's certificate is the clients' identity. Each measured call is what one
 * `kubectl` run costs the broker: a NEW mutual-TLS connection (no keep-alive, no session
 * resumption), the client certificate checked against the CA and the certificate record, the
 * cluster, roles and aliases read, a 10-minute certificate signed by the cluster CA for a
 * client public key (pre-generated, one per client). In-run reference: the same 16 clients
 * against the same listener doing only the mutual-TLS handshake and a no-op route (a path the
 * broker answers 404 without touching the database). Clients and server share this process
 * (and its event loop) for both figures. Rounds alternate reference / credentials.
 *
 * Env: BENCH_SECONDS (per round, default 8), BENCH_ROUNDS (default 3), BENCH_KEEP_DB=1,
 * BENCH_MODES (comma list of new,resume,keepalive; default all three).
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request, type RequestOptions } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createCertificateApp } from '../../../apps/certificate-service/src/api/create-app';
import { loadCertsvcConfig } from '../../../apps/certificate-service/src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../../apps/certificate-service/src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../../apps/certificate-service/src/app/metrics/certsvc-metrics';
import { K8sBrokerServer } from '../../../apps/certificate-service/src/modules/k8s/k8s-broker.server';
import { toPem } from '@platform/pki';
import { ecKeyPair, makeCsr } from '@platform/pki/testing';
import { stackUrl, adminQuery } from '../support/stack-db';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CLIENTS = 16;
const ADMIN = { email: 'bench@certsvc.local', password: 'bench-password-1234' };

async function api<T>(
  base: string,
  method: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

function must<T>(res: { status: number; body: T }, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

interface Tls {
  port: number;
  serverCa: string;
  cert: string;
  key: string;
}

/**
 * How a client connects: `new` a full mutual-TLS handshake per call (no resumption); `resume`
 * a new connection per call resuming the client's last TLS session (session ticket), as the
 * plugin does across kubectl runs; `keepalive` one persistent connection per client.
 */
type Mode = 'new' | 'resume' | 'keepalive';

/** One client: its TLS identity, its keep-alive agent and its last TLS session. */
class BenchClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private session: Buffer | undefined;
  resumed = 0;
  connections = 0;

  constructor(private readonly tls: Tls) {}

  /** One call; resolves with the HTTP status. */
  call(mode: Mode, path: string, body: string): Promise<number> {
    return new Promise((resolve, reject) => {
      // `session` goes through to tls.connect (not in the https option types).
      const options: RequestOptions & { session?: Buffer } = {
        host: '127.0.0.1',
        port: this.tls.port,
        path,
        method: 'POST',
        ca: this.tls.serverCa,
        cert: this.tls.cert,
        key: this.tls.key,
        agent: mode === 'keepalive' ? this.agent : false,
        session: mode === 'resume' ? this.session : undefined,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      };
      const req = request(options, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      if (mode === 'resume') {
        req.on('socket', (socket) => {
          const tlsSocket = socket as TLSSocket;
          tlsSocket.on('session', (session: Buffer) => (this.session = session));
          tlsSocket.once('secureConnect', () => {
            this.connections += 1;
            if (tlsSocket.isSessionReused()) this.resumed += 1;
          });
        });
      }
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** CLIENTS loops for `seconds`; calls per second, and fails on any unexpected status. */
async function rate(
  seconds: number,
  clients: BenchClient[],
  mode: Mode,
  path: string,
  bodies: string[],
  expected: number,
): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, i) => {
      while (performance.now() < until) {
        const status = await client.call(mode, path, bodies[i]);
        if (status !== expected) throw new Error(`${path}: status ${status}`);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const dbName = `bench_k8s_${Date.now()}`;
  await adminQuery(`CREATE DATABASE ${dbName}`);
  const url = new URL(stackUrl());
  url.pathname = `/${dbName}`;
  const dir = mkdtempSync(join(tmpdir(), 'k8s-bench-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'broker.key'),
      '-subj',
      '/CN=broker',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-days',
      '1',
      '-out',
      join(dir, 'broker.crt'),
    ],
    { stdio: 'pipe' },
  );
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: url.toString(),
    CERTSVC_JWT_SECRET: 'bench-secret-for-the-k8s-benchmark-0000000000',
    CERTSVC_CA_KEY_ENC_KEY: '07'.repeat(32),
    CERTSVC_LOG_LEVEL: 'warn',
    CERTSVC_LOCAL_ADMIN_EMAIL: ADMIN.email,
    CERTSVC_LOCAL_ADMIN_PASSWORD: ADMIN.password,
    CERTSVC_HOST: '127.0.0.1',
    CERTSVC_K8S_BROKER_URL: 'https://127.0.0.1:0',
    CERTSVC_K8S_BROKER_TLS_CERT_FILE: join(dir, 'broker.crt'),
    CERTSVC_K8S_BROKER_TLS_KEY_FILE: join(dir, 'broker.key'),
  });
  const app = await createCertificateApp({
    config,
    logger: createCertsvcLogger(config),
    metrics: new CertsvcMetrics({ processMetrics: false }),
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    console.log(
      `node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${CLIENTS} clients, ${ROUNDS} x ${SECONDS} s per figure`,
    );
    const token = must(
      await api<{ access_token: string }>(base, 'POST', '/api/v1/auth/local/login', ADMIN),
      200,
      'login',
    ).access_token;
    must(
      await api(
        base,
        'POST',
        '/api/v1/admin/k8s-clusters',
        {
          name: 'bench',
          server_url: 'https://127.0.0.1:6443',
          ca_bundle: readFileSync(join(dir, 'broker.crt'), 'utf8'),
          groups: [
            { source: 'role', value: 'cert-admin', group: 'system:masters' },
            { source: 'any', value: '', group: 'developers' },
            { source: 'user', value: ADMIN.email, group: 'bench' },
          ],
        },
        token,
      ),
      201,
      'cluster',
    );
    // The user's user_mtls certificate: enroll a device, give it user_mtls, file and approve.
    const serial = `BENCH-K8S-${Date.now()}`;
    const deviceKeys = ecKeyPair();
    const nonce = must(
      await api<{ nonce: string }>(base, 'POST', '/api/v1/enroll/nonce', {}),
      201,
      'nonce',
    ).nonce;
    const device = must(
      await api<{ enrollment_token: string }>(base, 'POST', '/api/v1/enroll', {
        csr: toPem('CERTIFICATE REQUEST', makeCsr({ keyPair: deviceKeys, commonName: serial })),
        serial,
        nonce,
        agent_version: '2.4.1',
        platform: 'linux',
        hostname: 'bench-host',
      }),
      201,
      'enroll',
    );
    must(
      await api(
        base,
        'PUT',
        `/api/v1/devices/${serial}/purposes`,
        { purposes: ['wifi', 'user_mtls'] },
        token,
      ),
      200,
      'purposes',
    );
    const userKeys = ecKeyPair();
    const filed = must(
      await api<{ request_id: string }>(base, 'POST', '/api/v1/enroll/user', {
        serial,
        enrollment_token: device.enrollment_token,
        csr: toPem('CERTIFICATE REQUEST', makeCsr({ keyPair: userKeys, commonName: ADMIN.email })),
        purpose: 'user_mtls',
        user: ADMIN.email,
      }),
      201,
      'enroll/user',
    );
    const approved = must(
      await api<{ results: { status: string; serial?: string }[] }>(
        base,
        'POST',
        '/api/v1/requests/approve',
        { request_ids: [filed.request_id] },
        token,
      ),
      200,
      'approve',
    ).results[0];
    if (approved?.status !== 'issued' || !approved.serial) throw new Error('not issued');
    const [row] = (await app
      .get(DataSource)
      .query('SELECT der FROM certificates WHERE serial = $1', [approved.serial])) as {
      der: Buffer;
    }[];
    const tls: Tls = {
      port: app.get(K8sBrokerServer).port() as number,
      serverCa: readFileSync(join(dir, 'broker.crt'), 'utf8'),
      cert: toPem('CERTIFICATE', row.der),
      key: userKeys.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    };
    const bodies = Array.from({ length: CLIENTS }, () =>
      JSON.stringify({
        cluster: 'bench',
        public_key: generateKeyPairSync('ec', { namedCurve: 'P-256' })
          .publicKey.export({ format: 'pem', type: 'spki' })
          .toString(),
        prompt_available: true,
      }),
    );
    const noop = Array.from({ length: CLIENTS }, () => '{}');
    const clients = Array.from({ length: CLIENTS }, () => new BenchClient(tls));
    const CREDENTIAL = '/api/v1/k8s/credential';
    const modes: { mode: Mode; label: string; reference: string }[] = [
      {
        mode: 'new',
        label: 'new connection, full handshake',
        reference: 'mTLS handshake + no-op route',
      },
      {
        mode: 'resume',
        label: 'new connection, resumed TLS session',
        reference: 'resumed handshake + no-op route',
      },
      {
        mode: 'keepalive',
        label: 'keep-alive connection',
        reference: 'HTTPS keep-alive no-op request',
      },
    ];
    const only = process.env['BENCH_MODES']?.split(',');
    if (only) modes.splice(0, modes.length, ...modes.filter((m) => only.includes(m.mode)));
    for (const { mode } of modes) {
      await rate(1, clients, mode, '/noop', noop, 404); // warm-up
      await rate(1, clients, mode, CREDENTIAL, bodies, 201);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const summary: string[] = [];
    for (const { mode, label, reference } of modes) {
      const refs: number[] = [];
      const creds: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        refs.push(await rate(SECONDS, clients, mode, '/noop', noop, 404));
        creds.push(await rate(SECONDS, clients, mode, CREDENTIAL, bodies, 201));
        console.log(
          `${label}, round ${round + 1}: reference (${reference}) ${refs[round].toFixed(0)}/s, credentials ${creds[round].toFixed(0)}/s, ratio ${(creds[round] / refs[round]).toFixed(2)}, load ${loadavg()[0].toFixed(1)}`,
        );
      }
      summary.push(
        `median, ${label}: reference (${reference}) ${median(refs).toFixed(0)}/s, credentials ${median(creds).toFixed(0)}/s`,
      );
    }
    const connections = clients.reduce((n, c) => n + c.connections, 0);
    const resumed = clients.reduce((n, c) => n + c.resumed, 0);
    for (const line of summary) console.log(line);
    console.log(
      `TLS sessions resumed in the resume mode: ${resumed} of ${connections} connections; target >= 500 credentials/s`,
    );
    for (const client of clients) client.close();
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    if (process.env['BENCH_KEEP_DB'] !== '1') {
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
