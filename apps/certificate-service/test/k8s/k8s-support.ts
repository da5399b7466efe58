import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toPem } from '@platform/pki';
import { enrollDevice, sql } from '../fixtures/enroll';
import { approveRows } from '../fixtures/issue';
import { opensslCsr } from '../fixtures/openssl';
import { K8sBrokerServer } from '../../src/modules/k8s/k8s-broker.server';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../support/test-app';

/** A directory removed by `cleanup()`. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'certsvc-k8s-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Self-signed EC certificate and key made by openssl, with SAN IP:127.0.0.1. */
export function opensslSelfSigned(dir: string, name: string): { certPem: string; keyPem: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
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
      key,
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-days',
      '2',
      '-out',
      cert,
    ],
    { stdio: 'pipe' },
  );
  return { certPem: readFileSync(cert, 'utf8'), keyPem: readFileSync(key, 'utf8') };
}

/** Broker listener env for `startTestApp`: port 0, server certificate from files in `dir`. */
export function brokerEnv(dir: string, extra: Record<string, string> = {}) {
  const server = opensslSelfSigned(dir, 'broker');
  writeFileSync(join(dir, 'broker.pem'), server.certPem);
  writeFileSync(join(dir, 'broker-key.pem'), server.keyPem);
  return {
    serverCaPem: server.certPem,
    env: {
      CERTSVC_K8S_BROKER_URL: 'https://127.0.0.1:0',
      CERTSVC_K8S_BROKER_TLS_CERT_FILE: join(dir, 'broker.pem'),
      CERTSVC_K8S_BROKER_TLS_KEY_FILE: join(dir, 'broker-key.pem'),
      ...extra,
    },
  };
}

export interface ClientIdentity {
  certPem: string;
  keyPem: string;
  serial?: string;
}

/** A `user_mtls` certificate of `user` issued by the service (enroll, assign, approve). */
export async function userMtlsCertificate(
  t: TestApp,
  adminToken: string,
  user: string,
): Promise<ClientIdentity> {
  const device = await enrollDevice(t);
  await t.http
    .put(`/api/v1/devices/${device.serial}/purposes`)
    .set(...bearer(adminToken))
    .send({ purposes: ['wifi', 'user_mtls'] })
    .expect(200);
  const csr = opensslCsr('ec', user);
  const filed = await t.http
    .post('/api/v1/enroll/user')
    .send({
      serial: device.serial,
      enrollment_token: device.enrollmentToken,
      csr: csr.csrPem,
      purpose: 'user_mtls',
      user,
    })
    .expect(201);
  const [row] = await approveRows(t, adminToken, [
    (filed.body as { request_id: string }).request_id,
  ]);
  if (row?.status !== 'issued' || !row.serial)
    throw new Error(`not issued: ${JSON.stringify(row)}`);
  const [cert] = await sql<{ der: Buffer }>(t, 'SELECT der FROM certificates WHERE serial = $1', [
    row.serial,
  ]);
  return {
    certPem: toPem('CERTIFICATE', cert.der),
    keyPem: csr.keyPem,
    serial: row.serial,
  };
}

export interface BrokerAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** One call to the broker over mutual TLS (no client certificate when `client` is undefined). */
export function callBroker(
  port: number,
  serverCaPem: string,
  client: ClientIdentity | undefined,
  body: unknown,
  path = '/api/v1/k8s/credential',
): Promise<BrokerAnswer> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        ca: serverCaPem,
        cert: client?.certPem,
        key: client?.keyPem,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(raw) as Record<string, unknown>,
            });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: { raw } });
          }
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** A cluster as the admin API answers its registration. */
export interface RegisteredCluster {
  id: string;
  client_ca_pem: string;
}

/** Registers a cluster through the admin API (201 expected). */
export async function registerCluster(
  t: TestApp,
  adminToken: string,
  body: Record<string, unknown>,
): Promise<RegisteredCluster> {
  const res = await t.http
    .post('/api/v1/admin/k8s-clusters')
    .set(...bearer(adminToken))
    .send(body)
    .expect(201);
  return res.body as RegisteredCluster;
}

export interface Broker {
  t: TestApp;
  admin: TestUser;
  server: K8sBrokerServer;
  port: number;
  serverCaPem: string;
}

/** Runs `work`; closes the app when it throws. */
async function orClose<T>(t: TestApp, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await t.close();
    throw error;
  }
}

/** The app with the broker listener on (`brokerEnv` in `dir`, plus `env`), the admin logged in. */
export async function startBroker(dir: string, env: Record<string, string> = {}): Promise<Broker> {
  const broker = brokerEnv(dir, env);
  const t = await startTestApp({ env: broker.env });
  const server = t.app.get(K8sBrokerServer);
  const admin = await orClose(t, () => loginAdmin(t));
  return { t, admin, server, port: server.port() as number, serverCaPem: broker.serverCaPem };
}

export interface BrokerLab extends Broker {
  /** The registered clusters, in the order given. */
  clusters: RegisteredCluster[];
  /** The admin's `user_mtls` certificate. */
  me: ClientIdentity;
  /** Asks for a credential of cluster `dev` with a fresh public key; `body` adds or replaces. */
  ask(client: ClientIdentity | undefined, body?: Record<string, unknown>): Promise<BrokerAnswer>;
}

export interface BrokerLabOptions {
  env?: Record<string, string>;
  /** Cluster bodies; `ca_bundle` defaults to the broker's server certificate (any CA will do). */
  clusters: Record<string, unknown>[];
}

/** `startBroker`, the clusters registered, then the admin's `user_mtls` certificate. */
export async function startBrokerLab(dir: string, options: BrokerLabOptions): Promise<BrokerLab> {
  const broker = await startBroker(dir, options.env);
  const { t, admin, port, serverCaPem } = broker;
  return orClose(t, async () => {
    const clusters: RegisteredCluster[] = [];
    for (const body of options.clusters) {
      const withCa = { ca_bundle: serverCaPem, ...body };
      clusters.push(await registerCluster(t, admin.accessToken, withCa));
    }
    const me = await userMtlsCertificate(t, admin.accessToken, ADMIN_EMAIL);
    const ask = (client: ClientIdentity | undefined, body: Record<string, unknown> = {}) =>
      callBroker(port, serverCaPem, client, {
        cluster: 'dev',
        public_key: publicKeyPem(),
        ...body,
      });
    return { ...broker, clusters, me, ask };
  });
}

function publicKeyPem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .publicKey.export({ format: 'pem', type: 'spki' })
    .toString();
}
