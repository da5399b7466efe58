import { sign } from 'node:crypto';
import type { HostCallRequest, InvokeStart, LoadRequest } from '@platform/plugin-protocol';
import type { RunningPluginRunner } from '../../src/app/runner';
import {
  auth,
  invoke,
  PROJECT,
  publisher,
  runnerClient,
  startApiRunner,
  unary,
  type RawRunnerClient,
} from '../runner-api/runner-api-harness';
import {
  BUILD_TIMEOUT_MS,
  finding,
  shownSecret,
  testComponent,
  type TestComponent,
} from './support/wasm-lab';

// A load transpiles and compiles a 12 MB component (seconds; 5-15 s on the shared 2-core
// machine under parallel test files).
jest.setTimeout(120_000);

const SECRET = 'installation-secret-7c1e93a0';

/**
 * Tier 1 behind the runner API, as the findings service uses it: a real runner process
 * wiring (gRPC, WasmPluginHost, the stream broker), a signed WebAssembly Load, an Invoke whose
 * host call travels back on the stream to the findings side and whose answer reaches the
 * guest, and the secret kept out of the error text.
 */
describe('runner API: a WebAssembly plugin end to end', () => {
  let probe: TestComponent;
  let runner: RunningPluginRunner;
  let client: RawRunnerClient;

  beforeAll(async () => {
    probe = await testComponent('probe');
    runner = await startApiRunner();
    client = runnerClient(runner.grpcPort);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    client?.close();
    await runner?.close();
  });

  const load = (): LoadRequest => ({
    plugin_id: 'probe-1',
    version: probe.manifest.version,
    version_digest: probe.digest,
    runtime: 'wasm',
    manifest: probe.manifestBytes,
    signature: sign(null, probe.manifestBytes, publisher.privateKey),
    source: { id: 'test-source', public_key: publisher.publicKeyPem, allows_native: false },
    artifact: probe.component,
    permitted_hosts: [],
  });

  const start = (rule: string, description: string): InvokeStart => ({
    context: {
      plugin_id: 'probe-1',
      version_digest: probe.digest,
      project_id: PROJECT,
      event_id: 'event-1',
    },
    capability: 'finding_enricher',
    operation: 'enrich',
    payload_json: JSON.stringify({ finding: finding(rule, description) }),
    settings_json: JSON.stringify({ label: 'from-settings' }),
    idempotency_key: '',
    deadline_ms: 0,
  });

  const findingsSide = (call: HostCallRequest) =>
    call.call === 'get_secret' && call.get_secret?.name === 'api_token'
      ? { secret: { found: true, value: SECRET } }
      : { secret: { found: false, value: '' } };

  it('loads a signed component and answers enrich with a host call over the stream', async () => {
    const loaded = await unary(client.Load, client, load(), auth());
    expect(loaded.error).toBeUndefined();
    expect(loaded.response).toMatchObject({ plugin_id: 'probe-1', runtime: 'wasm' });

    const tags = await invoke(client, start('tags', ''), findingsSide);
    expect(tags.error).toBeUndefined();
    expect(tags.result?.ok).toBe(true);
    expect(JSON.parse(tags.result!.value_json)).toEqual(
      expect.arrayContaining([
        { key: 'label', value: 'from-settings' },
        { key: 'event', value: 'event-1' },
      ]),
    );

    const secret = await invoke(client, start('secret', 'api_token'), findingsSide);
    expect(secret.hostCalls.map((c) => [c.call, c.get_secret?.name])).toEqual([
      ['get_secret', 'api_token'],
    ]);
    expect(JSON.parse(secret.result!.value_json)).toEqual([
      { key: 'value', value: shownSecret(SECRET) },
    ]);

    // The guest puts the secret into its error: the runner scrubs it before it leaves.
    const leak = await invoke(client, start('leak-in-error', 'api_token'), findingsSide);
    expect(leak.result).toMatchObject({ ok: false, error_code: 'plugin_error' });
    expect(JSON.stringify(leak.result)).not.toContain(SECRET);
    expect(JSON.stringify(leak.result)).toContain('[redacted]');
  });

  it('refuses at load a component whose manifest signature does not verify', async () => {
    const refused = await unary(
      client.Load,
      client,
      { ...load(), plugin_id: 'probe-2', signature: Buffer.alloc(64) },
      auth(),
    );
    expect(refused.code).toBe('signature_invalid');
  });
});
