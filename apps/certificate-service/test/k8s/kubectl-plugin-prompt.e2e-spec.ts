import { execFile } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { K8sBrokerServer } from '../../src/modules/k8s/k8s-broker.server';
import { bearer, loginAdmin } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp } from '../support/test-app';
import { brokerEnv, opensslSelfSigned, tempDir, userMtlsCertificate } from './k8s-support';

const PLUGIN = resolve(__dirname, '../../../../tools/kubectl-certsvc/kubectl-certsvc.mjs');

interface Run {
  code: number;
  output: string;
  stderr: string;
}

/** Runs a command; `input` is written to its stdin (then closed). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(
      command,
      args,
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, output: stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

/** A loopback API-server stand-in requiring a client certificate of the cluster's CA. */
function standIn(tls: { certPem: string; keyPem: string }, clientCaPem: string): Promise<Server> {
  const server = createServer(
    { cert: tls.certPem, key: tls.keyPem, ca: clientCaPem, requestCert: true },
    (req, res) => {
      res.writeHead(req.url === '/version' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ major: '1', minor: '30', gitVersion: 'v1.30.0-standin' }));
    },
  );
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/** App with the broker at `step`, a registered stand-in cluster and a kubeconfig using the plugin. */
async function rig(dir: string, step: string) {
  const broker = brokerEnv(dir, { CERTSVC_K8S_PROMPT_STEP: step });
  const t = await startTestApp({ env: broker.env });
  const brokerServer = t.app.get(K8sBrokerServer);
  const admin = await loginAdmin(t);
  const apiTls = opensslSelfSigned(dir, 'apiserver');
  const created = await t.http
    .post('/api/v1/admin/k8s-clusters')
    .set(...bearer(admin.accessToken))
    .send({
      name: 'standin',
      server_url: 'https://127.0.0.1:1',
      ca_bundle: apiTls.certPem,
      groups: [{ source: 'any', value: '', group: 'developers' }],
    })
    .expect(201);
  const api = await standIn(apiTls, (created.body as { client_ca_pem: string }).client_ca_pem);
  const apiUrl = `https://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const me = await userMtlsCertificate(t, admin.accessToken, ADMIN_EMAIL);
  writeFileSync(join(dir, 'me.crt'), me.certPem);
  writeFileSync(join(dir, 'me.key'), me.keyPem, { mode: 0o600 });
  writeFileSync(join(dir, 'broker-ca.pem'), broker.serverCaPem);
  const cache = join(dir, `cache-${step}`);
  const kubeconfig = join(dir, `kubeconfig-${step}.json`);
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'standin',
          cluster: {
            server: apiUrl,
            'certificate-authority-data': Buffer.from(apiTls.certPem).toString('base64'),
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
              args: [
                PLUGIN,
                `--broker=https://127.0.0.1:${brokerServer.port()}`,
                '--cluster=standin',
                `--cert=${join(dir, 'me.crt')}`,
                `--key=${join(dir, 'me.key')}`,
                `--broker-ca=${join(dir, 'broker-ca.pem')}`,
                `--cache-dir=${cache}`,
              ],
              interactiveMode: 'IfAvailable',
            },
          },
        },
      ],
      contexts: [{ name: 'standin', context: { cluster: 'standin', user: 'certsvc' } }],
      'current-context': 'standin',
    }),
  );
  const args = ['--kubeconfig', kubeconfig, 'get', '--raw', '/version'];
  const env = { HOME: dir };
  return {
    brokerServer,
    cache,
    /** kubectl without a terminal (stdin a pipe, no controlling tty). */
    kubectl: () => run('kubectl', args, env),
    /** kubectl on a pseudo-terminal (`script`), typing `answer` at the prompt. */
    kubectlOnTty: (answer: string) =>
      run('script', ['-qec', ['kubectl', ...args].join(' '), '/dev/null'], env, answer),
    close: async () => {
      await new Promise<void>((ok) => {
        api.close(() => ok());
        api.closeAllConnections();
      });
      await t.close();
    },
  };
}

describe('kubectl plugin - prompt-on-issuance with real kubectl', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('ask_every_time: asks on the terminal each call (no cache), a "no" refuses, without a terminal it issues and says so', async () => {
    const r = await rig(tmp.dir, 'ask_every_time');
    try {
      const before = r.brokerServer.requests;
      const yes = await r.kubectlOnTty('y\n');
      expect(yes.code).toBe(0);
      expect(yes.output).toContain(`use cluster standin as ${ADMIN_EMAIL} (developers)? [y/N]`);
      expect(yes.output).toContain('v1.30.0-standin');
      expect(r.brokerServer.requests).toBe(before + 1);
      // Asked every time: the next kubectl run calls the broker (and asks) again.
      const again = await r.kubectlOnTty('yes\n');
      expect(again.code).toBe(0);
      expect(again.output).toContain('[y/N]');
      expect(r.brokerServer.requests).toBe(before + 2);
      expect(readdirSync(r.cache).filter((f) => f.endsWith('.json'))).toEqual([]);
      // The plugin resumed its TLS session with the broker (ticket kept beside the cache).
      expect(readdirSync(r.cache).filter((f) => f.endsWith('.tls-session'))).toHaveLength(1);
      expect(r.brokerServer.resumedSessions).toBeGreaterThanOrEqual(1);

      const no = await r.kubectlOnTty('n\n');
      expect(no.code).not.toBe(0);
      expect(no.output).toContain('access to cluster standin was not confirmed (refused)');
      expect(no.output).not.toContain('v1.30.0-standin');

      const headless = await r.kubectl();
      expect(headless.code).toBe(0);
      expect(headless.output).toContain('v1.30.0-standin');
      expect(headless.stderr).toContain(
        'cluster access asks for confirmation (every_time), but no terminal can ask',
      );
    } finally {
      await r.close();
    }
  });

  it('raised: without a terminal the broker refuses and kubectl shows it; on a terminal it asks', async () => {
    const r = await rig(tmp.dir, 'raised');
    try {
      const refused = await r.kubectl();
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(
        'the credential broker refused (403 k8s_prompt_unavailable): cluster access needs a person to confirm',
      );
      const asked = await r.kubectlOnTty('y\n');
      expect(asked.code).toBe(0);
      expect(asked.output).toContain('[y/N]');
      expect(asked.output).toContain('v1.30.0-standin');
    } finally {
      await r.close();
    }
  });

  it('ask_once_per_window: asks at issuance, then the cached credential is used without asking', async () => {
    const r = await rig(tmp.dir, 'ask_once_per_window');
    try {
      const before = r.brokerServer.requests;
      const first = await r.kubectlOnTty('y\n');
      expect(first.code).toBe(0);
      expect(first.output).toContain('[y/N]');
      const second = await r.kubectlOnTty('');
      expect(second.code).toBe(0);
      expect(second.output).not.toContain('[y/N]');
      expect(second.output).toContain('v1.30.0-standin');
      expect(r.brokerServer.requests).toBe(before + 1);
    } finally {
      await r.close();
    }
  });
});
