import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { readFileSync, statSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { join, resolve } from 'node:path';
import { bearer } from '../support/sessions';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type TestApp } from '../support/test-app';
import { opensslSelfSigned, startBroker, tempDir } from './k8s-support';
import { run } from './kubectl-support';

const TOOLS = resolve(__dirname, '../../../../tools/kubectl-certsvc');
const SETUP = join(TOOLS, 'local-setup.mjs');
const STANDIN = join(TOOLS, 'standin-apiserver.mjs');

/** A loopback port free right now (the stand-in must know it before the cluster is registered). */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });
}

/** Starts the stand-in API server; resolves once it prints its address. */
function startStandIn(env: Record<string, string>): Promise<ChildProcess> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [STANDIN], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout?.once('data', () => ok(child));
    child.once('exit', (code) => fail(new Error(`stand-in exited ${code}: ${err}`)));
  });
}

interface Whoami {
  status: { userInfo: { username: string; groups: string[] } };
}

/**
 * What `npm run up` runs for kubectl (tools/kubectl-certsvc/local-setup.mjs and the stand-in API
 * server), against the real service with its broker listener, then the real kubectl.
 */
describe('kubectl from npm run up: local-setup.mjs and the stand-in API server', () => {
  const tmp = tempDir();
  let t: TestApp | undefined;
  let standIn: ChildProcess | undefined;
  let standInPort = 0;
  afterAll(async () => {
    standIn?.kill('SIGTERM');
    await t?.close();
    tmp.cleanup();
  });

  it('registers the cluster, enrolls the user_mtls identity once, and kubectl works', async () => {
    const broker = await startBroker(tmp.dir);
    t = broker.t;
    await t.app.listen(0, '127.0.0.1');
    const apiUrl = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    opensslSelfSigned(tmp.dir, 'apiserver'); // apiserver.crt / apiserver.key in tmp.dir
    const port = await freePort();
    standInPort = port;
    const kube = join(tmp.dir, 'kube');
    const setup = () =>
      run(process.execPath, [
        SETUP,
        `--api=${apiUrl}`,
        `--email=${ADMIN_EMAIL}`,
        `--password=${ADMIN_PASSWORD}`,
        `--broker=https://127.0.0.1:${broker.port}`,
        `--broker-ca=${join(tmp.dir, 'broker.pem')}`,
        `--server=https://127.0.0.1:${port}`,
        `--server-ca=${join(tmp.dir, 'apiserver.crt')}`,
        `--dir=${kube}`,
      ]);

    const first = await setup();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('cluster local registered');
    expect(first.stdout).toContain(`user_mtls certificate of ${ADMIN_EMAIL} issued`);
    expect(first.stdout).toContain(
      `broker check: issued a 10-minute credential for ${ADMIN_EMAIL} (groups certsvc:admins)`,
    );
    expect(statSync(join(kube, 'kubeconfig')).mode & 0o777).toBe(0o600);
    expect(statSync(join(kube, 'user.key')).mode & 0o777).toBe(0o600);

    standIn = await startStandIn({
      STANDIN_PORT: String(port),
      STANDIN_TLS_CERT_FILE: join(tmp.dir, 'apiserver.crt'),
      STANDIN_TLS_KEY_FILE: join(tmp.dir, 'apiserver.key'),
      STANDIN_CLIENT_CA_FILE: join(kube, 'cluster-client-ca.pem'),
    });
    const kubectl = (...args: string[]) =>
      run('kubectl', ['--kubeconfig', join(kube, 'kubeconfig'), ...args], { HOME: tmp.dir });
    const whoami = await kubectl('auth', 'whoami', '-o', 'json');
    expect(whoami.code).toBe(0);
    const info = (JSON.parse(whoami.stdout) as Whoami).status.userInfo;
    expect(info.username).toBe(ADMIN_EMAIL);
    expect(info.groups).toContain('certsvc:admins');
    const version = await kubectl('version', '-o', 'json');
    expect(version.code).toBe(0);
    expect(JSON.parse(version.stdout)).toMatchObject({
      serverVersion: { gitVersion: 'v1.30.0-certsvc-standin' },
    });

    // A second run (npm run up again): the identity is kept, the cluster only updated.
    const second = await setup();
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('cluster local updated');
    expect(second.stdout).not.toContain('issued (serial');

    // The kept certificate revoked: the broker refuses it and a new one is enrolled.
    const serial = /issued \(serial ([0-9a-f]+),/.exec(first.stdout)?.[1];
    await t.http
      .post(`/api/v1/certificates/${serial}/revoke`)
      .set(...bearer(broker.admin.accessToken))
      .send({ reason: 'superseded' })
      .expect(200);
    const third = await setup();
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('not usable (403 k8s_client_certificate_revoked)');
    expect(third.stdout).toContain(`user_mtls certificate of ${ADMIN_EMAIL} issued`);
    expect(third.stdout).not.toContain('device LOCAL-KUBECTL');

    // The raised prompt step refuses the script's call (no terminal) after the identity was
    // accepted: the set-up still succeeds and keeps the certificate.
    await t.http
      .put('/api/v1/settings/system')
      .set(...bearer(broker.admin.accessToken))
      .send({ k8s_prompt_step: 'raised' })
      .expect(200);
    const raised = await setup();
    expect(raised.code).toBe(0);
    expect(raised.stdout).toContain('broker check: identity accepted; the raised prompt step');
    expect(raised.stdout).not.toContain('issued (serial');
  });

  it('the stand-in answers a call without a client certificate with a Status 401', async () => {
    const answer = await new Promise<{ status?: number; body: string }>((ok, fail) => {
      const req = httpsGet(
        `https://127.0.0.1:${standInPort}/version`,
        { ca: readFileSync(join(tmp.dir, 'apiserver.crt')), agent: false },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => ok({ status: res.statusCode, body }));
        },
      );
      req.on('error', fail);
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', code: 401 });
  });
});
