import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ADMIN_EMAIL } from '../support/test-app';
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

/** Runs a command with `input` on its stdin; `output` is its stdout (on a terminal, all it wrote). */
async function runWithInput(command: string, args: string[], env: NodeJS.ProcessEnv, input = '') {
  const { stdout, ...rest } = await run(command, args, env, input);
  return { ...rest, output: stdout };
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
  return listenLoopback(server);
}

/** App with the broker at `step`, a registered stand-in cluster and a kubeconfig using the plugin. */
async function rig(dir: string, step: string) {
  const broker = await startBroker(dir, { CERTSVC_K8S_PROMPT_STEP: step });
  const { t, server: brokerServer } = broker;
  const { tls: apiTls, cluster } = await registerStandIn(broker, dir, [
    { source: 'any', value: '', group: 'developers' },
  ]);
  const api = await standIn(apiTls, cluster.client_ca_pem);
  const apiUrl = `https://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const me = await userMtlsCertificate(t, broker.admin.accessToken, ADMIN_EMAIL);
  const files = writePluginFiles(dir, me, broker.serverCaPem);
  const cache = join(dir, `cache-${step}`);
  const kubeconfig = join(dir, `kubeconfig-${step}.json`);
  writeKubeconfig(kubeconfig, apiUrl, apiTls.certPem, {
    args: [
      PLUGIN,
      `--broker=https://127.0.0.1:${brokerServer.port()}`,
      '--cluster=standin',
      `--cert=${files.cert}`,
      `--key=${files.key}`,
      `--broker-ca=${files.brokerCa}`,
      `--cache-dir=${cache}`,
    ],
    interactiveMode: 'IfAvailable',
  });
  const args = ['--kubeconfig', kubeconfig, 'get', '--raw', '/version'];
  const env = { HOME: dir };
  return {
    brokerServer,
    cache,
    /** kubectl without a terminal (stdin a pipe, no controlling tty). */
    kubectl: () => runWithInput('kubectl', args, env),
    /** kubectl on a pseudo-terminal (`script`), typing `answer` at the prompt. */
    kubectlOnTty: (answer: string) =>
      runWithInput('script', ['-qec', ['kubectl', ...args].join(' '), '/dev/null'], env, answer),
    close: async () => {
      await closeServer(api);
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
