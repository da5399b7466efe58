import { status as GrpcStatus } from '@grpc/grpc-js';
import type { HostCallRequest, LoadRequest } from '@platform/plugin-protocol';
import { sign } from 'node:crypto';
import type { RunningPluginRunner } from '../../src/app/runner';
import {
  BUILD_TIMEOUT_MS,
  finding,
  testComponent,
  type TestComponent,
} from '../wasm/support/wasm-lab';
import {
  PROJECT,
  auth,
  invoke,
  publisher,
  runnerClient,
  startApiRunner,
  unary,
  type RawRunnerClient,
} from './runner-api-harness';

let runner: RunningPluginRunner;
let client: RawRunnerClient;
let probe: TestComponent;

beforeAll(async () => {
  probe = await testComponent('probe');
  runner = await startApiRunner();
  client = runnerClient(runner.grpcPort);
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  client?.close();
  await runner?.close();
});

/** The probe component as the findings service loads it: manifest bytes signed by the source. */
function probeLoad(pluginId: string): LoadRequest {
  const manifest = Buffer.from(JSON.stringify(probe.manifest));
  return {
    plugin_id: pluginId,
    version: probe.manifest.version,
    version_digest: probe.digest,
    runtime: 'wasm',
    manifest,
    signature: sign(null, manifest, publisher.privateKey),
    source: { id: 'test-source', public_key: publisher.publicKeyPem, allows_native: false },
    artifact: probe.component,
    permitted_hosts: [],
  };
}

function enrichStart(load: LoadRequest, rule: string, description: string, eventId: string) {
  return {
    context: {
      plugin_id: load.plugin_id,
      version_digest: load.version_digest,
      project_id: PROJECT,
      event_id: eventId,
    },
    capability: 'finding_enricher',
    operation: 'enrich',
    payload_json: JSON.stringify({ finding: finding(rule, description) }),
    settings_json: '{}',
    idempotency_key: '',
    deadline_ms: 0,
  };
}

function tags(valueJson: string): Record<string, string> {
  const list = JSON.parse(valueJson) as Array<{ key: string; value: string }>;
  return Object.fromEntries(list.map((t) => [t.key, t.value]));
}

describe('runner API: a WebAssembly component end to end', () => {
  it('loads the component, streams its host calls back to the findings side, and unloads it', async () => {
    const load = probeLoad('probe-api-1');
    const loaded = await unary(client.Load, client, load, auth());
    expect(loaded.error).toBeUndefined();
    expect(loaded.response).toMatchObject({ runtime: 'wasm', replaced: false });

    // is-cve-known goes to the findings side; only identifiers asked about come back.
    const seen: HostCallRequest[] = [];
    const cve = await invoke(
      client,
      enrichStart(load, 'cve', 'CVE-2024-0001,CVE-2024-0002', 'event-cve'),
      (call) => {
        seen.push(call);
        return { cve: { known_ids: ['CVE-2024-0002', 'CVE-2023-9999'] } };
      },
    );
    expect(seen.map((c) => [c.call, c.is_cve_known?.ids])).toEqual([
      ['is_cve_known', ['CVE-2024-0001', 'CVE-2024-0002']],
    ]);
    expect(cve.result?.ok).toBe(true);
    expect(tags(cve.result!.value_json)['known']).toBe('CVE-2024-0002');

    // send-email answered "not configured": the plugin sees an error, nothing was sent.
    const mail = await invoke(client, enrichStart(load, 'email', 'hello', 'event-mail'), () => ({
      error: { code: 'not_configured', message: 'no project mail' },
    }));
    expect(mail.result?.ok).toBe(true);
    expect(tags(mail.result!.value_json)['email']).toBe(
      'unavailable: the service did not send the e-mail',
    );

    // A secret of the installation, asked on the invocation's own stream.
    const secret = await invoke(
      client,
      enrichStart(load, 'secret', 'api_token', 'event-secret'),
      (call) =>
        call.call === 'get_secret' && call.get_secret?.name === 'api_token'
          ? { secret: { found: true, value: 'tok-for-probe' } }
          : { error: { code: 'denied', message: 'unexpected call' } },
    );
    expect(secret.result?.ok).toBe(true);
    expect(Object.keys(tags(secret.result!.value_json))).toEqual(['value']);

    const metrics = await (await fetch(`http://127.0.0.1:${runner.metricsPort}/metrics`)).text();
    expect(metrics).toMatch(
      /plugin_runner_invocations_total\{plugin="probe-api-1",runtime="wasm",operation="enrich",outcome="ok"\} 3/,
    );

    expect(
      (await unary(client.Unload, client, { plugin_id: 'probe-api-1' }, auth())).response,
    ).toEqual({ was_loaded: true });
    const after = await invoke(client, enrichStart(load, 'tags', '', 'event-after'), () => ({
      error: { code: 'denied', message: 'x' },
    }));
    expect(after.result).toMatchObject({ ok: false, error_code: 'not_loaded' });
  });

  it('refuses a component whose manifest signature does not verify', async () => {
    const load = probeLoad('probe-api-2');
    const refused = await unary(
      client.Load,
      client,
      { ...load, signature: Buffer.alloc(64, 1) },
      auth(),
    );
    expect(refused.error?.code).toBe(GrpcStatus.PERMISSION_DENIED);
    expect(refused.code).toBe('signature_invalid');
  });
});
