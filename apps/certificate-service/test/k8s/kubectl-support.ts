import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:https';
import { join, resolve } from 'node:path';
import {
  opensslSelfSigned,
  registerCluster,
  type Broker,
  type ClientIdentity,
  type RegisteredCluster,
} from './k8s-support';

export const PLUGIN = resolve(__dirname, '../../../../tools/kubectl-certsvc/kubectl-certsvc.mjs');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command; `input`, when given, is written to its stdin (then closed). */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  input?: string,
): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(
      command,
      args,
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** `server` listening on a free loopback port. */
export function listenLoopback(server: Server): Promise<Server> {
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/** Closes `server` and the connections it still holds. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((ok) => {
    server.close(() => ok());
    server.closeAllConnections();
  });
}

export interface StandInCluster {
  /** The API server's TLS certificate and key (self-signed, IP:127.0.0.1). */
  tls: { certPem: string; keyPem: string };
  cluster: RegisteredCluster;
}

/** Registers cluster `standin` (URL a placeholder) with the API server's certificate made in `dir`. */
export async function registerStandIn(
  broker: Broker,
  dir: string,
  groups: { source: string; value: string; group: string }[],
): Promise<StandInCluster> {
  const tls = opensslSelfSigned(dir, 'apiserver');
  const cluster = await registerCluster(broker.t, broker.admin.accessToken, {
    name: 'standin',
    server_url: 'https://127.0.0.1:1',
    ca_bundle: tls.certPem,
    groups,
  });
  return { tls, cluster };
}

/** The plugin's input files in `dir`: the user certificate and key, and the broker's CA. */
export function writePluginFiles(dir: string, me: ClientIdentity, brokerCaPem: string) {
  const files = {
    cert: join(dir, 'me.crt'),
    key: join(dir, 'me.key'),
    brokerCa: join(dir, 'broker-ca.pem'),
  };
  writeFileSync(files.cert, me.certPem);
  writeFileSync(files.key, me.keyPem, { mode: 0o600 });
  writeFileSync(files.brokerCa, brokerCaPem);
  return files;
}

/**
 * A kubeconfig (JSON) at `file`: cluster `standin` at `server`, whose TLS certificate is `caPem`,
 * and user `certsvc` authenticated by the plugin (node running `exec.args`).
 */
export function writeKubeconfig(
  file: string,
  server: string,
  caPem: string,
  exec: { args: string[]; interactiveMode?: string },
): void {
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'standin',
          cluster: {
            server,
            'certificate-authority-data': Buffer.from(caPem).toString('base64'),
          },
        },
      ],
      users: [
        {
          name: 'certsvc',
          user: {
            exec: {
              apiVersion: 'client.authentication.k8s.io/v1beta1',
              command: process.execPath,
              ...exec,
            },
          },
        },
      ],
      contexts: [{ name: 'standin', context: { cluster: 'standin', user: 'certsvc' } }],
      'current-context': 'standin',
    }),
  );
}
