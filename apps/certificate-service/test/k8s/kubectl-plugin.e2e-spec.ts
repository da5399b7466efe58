import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { bearer } from '../support/sessions';
import { ADMIN_EMAIL, type TestApp } from '../support/test-app';
import { startBroker, tempDir, userMtlsCertificate } from './k8s-support';
import {
  closeServer,
  listenLoopback,
  PLUGIN,
  registerStandIn,
  run,
  writeKubeconfig,
  writePluginFiles,
} from './kubectl-support';

interface KubeconfigExec {
  users: { user: { exec: { args: string[] } } }[];
}

/**
 * A loopback stand-in for a cluster's API server: TLS with a client certificate required and
 * verified against the cluster's client CA, answering /version and the default namespace's pods.
 */
function standInApiServer(
  tls: { certPem: string; keyPem: string },
  clientCaPem: string,
  seen: string[],
): Promise<Server> {
  const server = createServer(
    {
      cert: tls.certPem,
      key: tls.keyPem,
      ca: clientCaPem,
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      seen.push(`${peer.subject?.CN ?? ''}|${[peer.subject?.O ?? []].flat().join(',')}`);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/version') {
        json(200, {
          major: '1',
          minor: '30',
          gitVersion: 'v1.30.0-standin',
          platform: 'linux/amd64',
        });
      } else if (req.url?.startsWith('/api/v1/namespaces/default/pods')) {
        json(200, { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [] });
      } else {
        json(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404 });
      }
    },
  );
  return listenLoopback(server);
}

describe('kubectl exec credential plugin with real kubectl', () => {
  const tmp = tempDir();
  let t: TestApp;
  let apiServer: Server | undefined;
  const seen: string[] = [];
  afterAll(async () => {
    if (apiServer) await closeServer(apiServer);
    await t?.close();
    tmp.cleanup();
  });

  it('kubectl authenticates with the broker credential, caches it, and shows a refusal', async () => {
    const broker = await startBroker(tmp.dir);
    const { server: brokerServer, admin } = broker;
    t = broker.t;
    const { tls: apiTls, cluster } = await registerStandIn(broker, tmp.dir, [
      { source: 'role', value: 'cert-admin', group: 'cluster-admins' },
    ]);
    apiServer = await standInApiServer(apiTls, cluster.client_ca_pem, seen);
    const apiUrl = `https://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;
    await t.http
      .put(`/api/v1/admin/k8s-clusters/${cluster.id}`)
      .set(...bearer(admin.accessToken))
      .send({ server_url: apiUrl })
      .expect(200);

    const me = await userMtlsCertificate(t, admin.accessToken, ADMIN_EMAIL);
    const files = writePluginFiles(tmp.dir, me, broker.serverCaPem);
    const cache = join(tmp.dir, 'cache');
    const kubeconfig = join(tmp.dir, 'kubeconfig.json');
    writeKubeconfig(kubeconfig, apiUrl, apiTls.certPem, {
      args: [
        PLUGIN,
        '--broker',
        `https://127.0.0.1:${brokerServer.port()}`,
        '--cluster',
        'standin',
        '--cert',
        files.cert,
        '--key',
        files.key,
        '--broker-ca',
        files.brokerCa,
        '--cache-dir',
        cache,
      ],
    });
    const kubectl = (...args: string[]) =>
      run('kubectl', ['--kubeconfig', kubeconfig, ...args], { HOME: tmp.dir });

    const before = brokerServer.requests;
    const version = await kubectl('get', '--raw', '/version');
    // Default step ask_once_per_window, no terminal here: issued, and the plugin says so.
    expect(version.stderr).toBe(
      'kubectl-certsvc: cluster access asks for confirmation (once_per_window), but no terminal can ask; issued without it\n',
    );
    expect(JSON.parse(version.stdout)).toMatchObject({ gitVersion: 'v1.30.0-standin' });
    expect(brokerServer.requests).toBe(before + 1);
    // The stand-in saw the credential: CN = the user, O = the mapped group.
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([`${ADMIN_EMAIL}|cluster-admins`]));
    const [entry] = readdirSync(cache);
    expect(statSync(join(cache, entry)).mode & 0o777).toBe(0o600);

    // A second kubectl process within 10 minutes: the cached credential, no broker call.
    const pods = await kubectl('get', '--raw', '/api/v1/namespaces/default/pods');
    expect(JSON.parse(pods.stdout)).toMatchObject({ kind: 'PodList' });
    expect(brokerServer.requests).toBe(before + 1);

    // ExecCredential v1 when kubectl announces v1 (KUBERNETES_EXEC_INFO), from the same cache.
    const execArgs = (JSON.parse(readFileSync(kubeconfig, 'utf8')) as KubeconfigExec).users[0].user
      .exec.args;
    const v1 = await run(process.execPath, execArgs, {
      KUBERNETES_EXEC_INFO: JSON.stringify({
        apiVersion: 'client.authentication.k8s.io/v1',
        kind: 'ExecCredential',
        spec: { interactive: false },
      }),
    });
    const credential = JSON.parse(v1.stdout) as {
      apiVersion: string;
      kind: string;
      status: Record<string, string>;
    };
    expect(credential).toMatchObject({
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
    });
    expect(credential.status.clientCertificateData).toContain('BEGIN CERTIFICATE');
    expect(credential.status.clientKeyData).toContain('BEGIN PRIVATE KEY');
    expect(Date.parse(credential.status.expirationTimestamp) - Date.now()).toBeGreaterThan(
      8 * 60_000,
    );
    expect(brokerServer.requests).toBe(before + 1);

    // The user_mtls certificate revoked: the broker refuses and kubectl shows why.
    await t.http
      .post(`/api/v1/certificates/${me.serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'superseded' })
      .expect(200);
    writeFileSync(join(cache, entry), '{}');
    const refused = await kubectl('get', '--raw', '/version');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('k8s_client_certificate_revoked');
    expect(refused.stderr).toContain('the credential broker refused (403');
    // The broker was asked again (kubectl may run the plugin more than once after a failure).
    expect(brokerServer.requests).toBeGreaterThanOrEqual(before + 2);
  });

  it('prints a clear error and exits non-zero when the user certificate cannot be read', async () => {
    const res = await run(process.execPath, [PLUGIN], {
      KUBERNETES_EXEC_INFO: JSON.stringify({
        apiVersion: 'client.authentication.k8s.io/v1',
        kind: 'ExecCredential',
        spec: { interactive: false },
      }),
      CERTSVC_BROKER_URL: 'https://127.0.0.1:1',
      CERTSVC_CLUSTER: 'x',
      CERTSVC_CLIENT_CERT: join(tmp.dir, 'missing.crt'),
      CERTSVC_CLIENT_KEY: join(tmp.dir, 'missing.key'),
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('kubectl-certsvc: cannot read the user_mtls certificate');
  });
});
