import { status as GrpcStatus } from '@grpc/grpc-js';
import type { HostCallRequest } from '@platform/plugin-protocol';
import { waitFor } from '@platform/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningPluginRunner } from '../../src/app/runner';
import { check, healthClient, type HealthClient } from '../runner-harness';
import {
  PROJECT,
  auth,
  deliverStart,
  invoke,
  nativeLoad,
  runnerClient,
  startApiRunner,
  unary,
  type RawRunnerClient,
} from './runner-api-harness';

let runner: RunningPluginRunner;
let client: RawRunnerClient;
let health: HealthClient;
let scratch: string;

beforeAll(async () => {
  runner = await startApiRunner();
  client = runnerClient(runner.grpcPort);
  health = healthClient(runner.grpcPort);
  scratch = mkdtempSync(join(tmpdir(), 'runner-api-'));
});

afterAll(async () => {
  client?.close();
  health?.close();
  await runner?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The findings side of the host calls: secrets held here, mail and CVE "not configured". */
function findingsSide(call: HostCallRequest) {
  if (call.call === 'get_secret' && call.get_secret?.name === 'service_token') {
    return { secret: { found: true, value: 'svc-secret-value' } };
  }
  if (call.call === 'get_project_secret' && call.get_project_secret?.name === 'bot_token') {
    return { secret: { found: true, value: 'bot-secret-value-1' } };
  }
  if (call.call === 'get_secret' || call.call === 'get_project_secret') {
    return { secret: { found: false, value: '' } };
  }
  return { error: { code: 'not_configured', message: 'nothing answers this call yet' } };
}

async function metricsText(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${runner.metricsPort}/metrics`);
  return response.text();
}

describe('runner API: authentication', () => {
  it('refuses Load, Unload and Invoke without the token or with a wrong one', async () => {
    for (const metadata of [
      auth(null),
      auth('Bearer'),
      auth('wrong-token-0123456789abcdef0123456789'),
    ]) {
      const load = await unary(client.Load, client, nativeLoad(), metadata);
      expect(load.error?.code).toBe(GrpcStatus.UNAUTHENTICATED);
      expect(load.code).toBe('unauthenticated');
      const unload = await unary(client.Unload, client, { plugin_id: 'chat-api-1' }, metadata);
      expect(unload.error?.code).toBe(GrpcStatus.UNAUTHENTICATED);
      const call = await invoke(client, deliverStart(nativeLoad()), findingsSide, { metadata });
      expect(call.error?.code).toBe(GrpcStatus.UNAUTHENTICATED);
      expect(call.result).toBeUndefined();
      expect(call.hostCalls).toEqual([]);
    }
  });

  it('serves only with a configured token: a runner without PLUGIN_RUNNER_TOKEN refuses every call', async () => {
    const open = await startApiRunner({ PLUGIN_RUNNER_TOKEN: '' });
    const other = runnerClient(open.grpcPort);
    try {
      const load = await unary(other.Load, other, nativeLoad(), auth(''));
      expect(load.error?.code).toBe(GrpcStatus.UNAUTHENTICATED);
      expect(load.error?.details).toMatch(/PLUGIN_RUNNER_TOKEN is not set/);
    } finally {
      other.close();
      await open.close();
    }
  });
});

describe('runner API: a native channel end to end', () => {
  it('loads, invokes with the event context (host calls streamed back and answered), de-duplicates by idempotency key, unloads', async () => {
    const load = nativeLoad({ pluginId: 'chat-api-1' });
    const loaded = await unary(client.Load, client, load, auth());
    expect(loaded.error).toBeUndefined();
    expect(loaded.response).toEqual({
      plugin_id: 'chat-api-1',
      version: '1.0.0',
      version_digest: load.version_digest,
      runtime: 'native',
      replaced: false,
    });
    expect(await check(health, 'native:chat-api-1')).toEqual({ status: 'SERVING' });

    const record = join(scratch, 'deliveries.txt');
    const start = deliverStart(load, {
      settings_json: JSON.stringify({ chat_id: '42', record_file: record }),
    });
    const first = await invoke(client, start, findingsSide);
    expect(first.error).toBeUndefined();
    // The plugin's secret-marked settings were asked of the findings side on this stream.
    expect(
      first.hostCalls.map((c) => [c.call, c.get_secret?.name ?? c.get_project_secret?.name]),
    ).toEqual([
      ['get_project_secret', 'bot_token'],
      ['get_secret', 'service_token'],
    ]);
    expect(first.hostCalls.map((c) => c.call_id)).toEqual(['1', '2']);
    expect(first.result?.ok).toBe(true);
    const value = JSON.parse(first.result!.value_json) as {
      delivered: boolean;
      duplicate: boolean;
      result: Record<string, unknown>;
    };
    expect(value).toMatchObject({ delivered: true, duplicate: false });
    expect(value.result['context']).toEqual({
      plugin_id: 'chat-api-1',
      version_digest: load.version_digest,
      project_id: PROJECT,
      event_id: 'event-1',
    });
    expect(value.result['event']).toEqual({ kind: 'new_findings', count: 2 });
    // The answered values reached the plugin (lengths only are echoed).
    expect(value.result['secret_lengths']).toEqual({ bot_token: 18, service_token: 16 });

    // The same idempotency key again: answered from memory, not delivered twice.
    const again = await invoke(client, start, findingsSide);
    expect(again.result?.ok).toBe(true);
    expect(JSON.parse(again.result!.value_json)).toMatchObject({ duplicate: true });
    expect(readFileSync(record, 'utf8').split('\n').filter(Boolean)).toEqual(['delivery-1']);

    // A ticketing call on a native plugin is refused at call.
    const ticket = await invoke(
      client,
      { ...start, capability: 'ticketing_provider', operation: 'create-task', idempotency_key: '' },
      findingsSide,
    );
    expect(ticket.result).toMatchObject({ ok: false, error_code: 'refused' });
    expect(JSON.parse(ticket.result!.error_detail_json)).toEqual({
      reason: 'ticketing_provider_native',
    });

    const metrics = await metricsText();
    expect(metrics).toMatch(
      /plugin_runner_invocations_total\{plugin="chat-api-1",runtime="native",operation="deliver",outcome="ok"\} 2/,
    );
    expect(metrics).toMatch(
      /plugin_runner_invocation_duration_seconds_count\{plugin="chat-api-1",runtime="native"\} [1-9]/,
    );

    const unloaded = await unary(client.Unload, client, { plugin_id: 'chat-api-1' }, auth());
    expect(unloaded.response).toEqual({ was_loaded: true });
    expect((await check(health, 'native:chat-api-1')).error?.code).toBe(GrpcStatus.NOT_FOUND);
    const after = await invoke(client, { ...start, idempotency_key: 'delivery-2' }, findingsSide);
    expect(after.result).toMatchObject({ ok: false, error_code: 'not_loaded' });
    const twice = await unary(client.Unload, client, { plugin_id: 'chat-api-1' }, auth());
    expect(twice.response).toEqual({ was_loaded: false });
  });

  it('fails the delivery explicitly when the findings side answers a secret call with "not_configured"', async () => {
    const load = nativeLoad({ pluginId: 'chat-api-2' });
    expect((await unary(client.Load, client, load, auth())).error).toBeUndefined();
    const call = await invoke(client, deliverStart(load), () => ({
      error: { code: 'not_configured', message: 'no secret store yet' },
    }));
    expect(call.hostCalls).toHaveLength(1);
    expect(call.result).toMatchObject({ ok: false, error_code: 'refused' });
    expect(call.result?.error_message).toMatch(/not_configured: no secret store yet/);
    expect(JSON.parse(call.result!.error_detail_json)).toEqual({
      reason: 'secret_unavailable',
      setting: 'bot_token',
    });
    await unary(client.Unload, client, { plugin_id: 'chat-api-2' }, auth());
  });

  it('hands the channel the secrets attached to InvokeStart with no secret host call, only secret-marked names of the right scope, scrubbed from the answer', async () => {
    const load = nativeLoad({ pluginId: 'chat-api-7' });
    expect((await unary(client.Load, client, load, auth())).error).toBeUndefined();
    const attached = {
      secrets_attached: true,
      // `bot_token` is per-project: given as an installation secret it is not the project's.
      installation_secrets: {
        service_token: 'attached-svc-secret',
        bot_token: 'wrong-scope-value',
        chat_id: 'not-a-secret',
      },
      project_secrets: { bot_token: 'attached-bot-secret-2' },
    };
    const call = await invoke(
      client,
      deliverStart(load, {
        ...attached,
        settings_json: JSON.stringify({ chat_id: '42', mode: 'reject' }),
        idempotency_key: 'attached-1',
      }),
      findingsSide,
    );
    // No secret was asked of the findings side: one Invoke, no host call round trip.
    expect(call.hostCalls).toEqual([]);
    // The plugin echoed the attached project secret: the runner scrubbed it.
    expect(call.result).toMatchObject({ ok: false, error_code: 'plugin_error' });
    expect(call.result?.error_message).toBe('chat not found (token [redacted])');
    const ok = await invoke(
      client,
      deliverStart(load, { ...attached, idempotency_key: 'attached-2' }),
      findingsSide,
    );
    expect(ok.hostCalls).toEqual([]);
    const value = JSON.parse(ok.result!.value_json) as { result: Record<string, unknown> };
    expect(value.result['secret_names']).toEqual(['bot_token', 'service_token']);
    expect(value.result['secret_lengths']).toEqual({
      bot_token: 'attached-bot-secret-2'.length,
      service_token: 'attached-svc-secret'.length,
    });

    // Not attached (an older findings service): asked through the host calls as before.
    const asked = await invoke(
      client,
      deliverStart(load, { idempotency_key: 'attached-3' }),
      findingsSide,
    );
    expect(asked.hostCalls.map((c) => c.call).sort()).toEqual(['get_project_secret', 'get_secret']);
    expect(asked.result?.ok).toBe(true);
    await unary(client.Unload, client, { plugin_id: 'chat-api-7' }, auth());
  });

  it('reloads a new version in place (replaced) and the plugin process of the old one ends', async () => {
    const v1 = nativeLoad({ pluginId: 'chat-api-3' });
    expect((await unary(client.Load, client, v1, auth())).error).toBeUndefined();
    const first = await invoke(client, deliverStart(v1), findingsSide);
    const pid1 = (JSON.parse(first.result!.value_json) as { result: { pid: number } }).result.pid;

    const v2 = nativeLoad({ pluginId: 'chat-api-3', build: '2', manifest: { version: '1.1.0' } });
    const reloaded = await unary(client.Load, client, v2, auth());
    expect(reloaded.response).toMatchObject({ version: '1.1.0', replaced: true });
    const second = await invoke(
      client,
      deliverStart(v2, { idempotency_key: 'delivery-v2' }),
      findingsSide,
    );
    const pid2 = (JSON.parse(second.result!.value_json) as { result: { pid: number } }).result.pid;
    expect(pid2).not.toBe(pid1);
    await waitFor(
      () => {
        try {
          process.kill(pid1, 0);
        } catch {
          return;
        }
        throw new Error(`old plugin process ${pid1} still running`);
      },
      { timeoutMs: 10_000, what: 'the old version to stop' },
    );
    // A caller still naming the old version is refused.
    const stale = await invoke(
      client,
      deliverStart(v1, { idempotency_key: 'delivery-stale' }),
      findingsSide,
    );
    expect(stale.result).toMatchObject({ ok: false, error_code: 'version_mismatch' });
    await unary(client.Unload, client, { plugin_id: 'chat-api-3' }, auth());
  });
  it('counts a crashed plugin process as a restart and a trap on the metrics port', async () => {
    const load = nativeLoad({ pluginId: 'chat-api-4' });
    expect((await unary(client.Load, client, load, auth())).error).toBeUndefined();
    expect(await metricsText()).toMatch(
      /plugin_runner_pool_instances\{plugin="chat-api-4",runtime="native",state="idle"\} 1/,
    );
    const crash = await invoke(
      client,
      deliverStart(load, { settings_json: JSON.stringify({ mode: 'crash' }) }),
      findingsSide,
    );
    expect(crash.result).toMatchObject({ ok: false, error_code: 'trap' });
    await waitFor(
      async () => {
        const text = await metricsText();
        expect(text).toMatch(
          /plugin_runner_native_restarts_total\{plugin="chat-api-4",reason="crash"\} 1/,
        );
      },
      { timeoutMs: 10_000, what: 'the restart to be counted' },
    );
    expect(await metricsText()).toMatch(
      /plugin_runner_invocations_total\{plugin="chat-api-4",runtime="native",operation="deliver",outcome="trap"\} 1/,
    );
    expect(await metricsText()).toMatch(
      /plugin_runner_traps_total\{plugin="chat-api-4",runtime="native"\} 1/,
    );
    await unary(client.Unload, client, { plugin_id: 'chat-api-4' }, auth());
  });
});

describe('runner API: refused loads', () => {
  it.each([
    [
      'an unsigned source',
      { signed: false },
      'native_unsigned_source',
      GrpcStatus.PERMISSION_DENIED,
    ],
    [
      'a source without allows_native',
      { allowsNative: false },
      'native_not_permitted',
      GrpcStatus.PERMISSION_DENIED,
    ],
    [
      'an artifact that does not match its digest',
      { tamper: true },
      'digest_mismatch',
      GrpcStatus.PERMISSION_DENIED,
    ],
    [
      'a ticketing provider declared native',
      { manifest: { capabilities: ['ticketing_provider'] } },
      'native_capability_refused',
      GrpcStatus.PERMISSION_DENIED,
    ],
  ])('refuses %s', async (_what, options, code, grpcStatus) => {
    const refused = await unary(
      client.Load,
      client,
      nativeLoad({ pluginId: 'chat-refused', ...options }),
      auth(),
    );
    expect(refused.error?.code).toBe(grpcStatus);
    expect(refused.code).toBe(code);
    expect((await check(health, 'native:chat-refused')).error?.code).toBe(GrpcStatus.NOT_FOUND);
  });

  it('refuses a manifest signature that does not verify', async () => {
    const load = nativeLoad({ pluginId: 'chat-refused' });
    const signature = Buffer.from(load.signature);
    signature[0] = (signature[0] ?? 0) ^ 0xff;
    const refused = await unary(client.Load, client, { ...load, signature }, auth());
    expect(refused.error?.code).toBe(GrpcStatus.PERMISSION_DENIED);
    expect(refused.code).toBe('signature_invalid');
  });

  it('refuses a malformed request', async () => {
    const load = nativeLoad({ pluginId: '../etc' });
    const refused = await unary(client.Load, client, load, auth());
    expect(refused.error?.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(refused.code).toBe('invalid_request');
  });

  it('refuses a notification channel declared as WebAssembly, and an artifact that is not a component', async () => {
    const channel = nativeLoad({
      pluginId: 'wasm-1',
      runtime: 'wasm',
      manifest: { runtime: 'wasm' },
    });
    const refused = await unary(client.Load, client, channel, auth());
    expect(refused.error?.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(refused.code).toBe('manifest_invalid');
    expect(refused.error?.details).toMatch(/notification_channel cannot run on runtime wasm/);

    const script = nativeLoad({
      pluginId: 'wasm-1',
      runtime: 'wasm',
      manifest: { runtime: 'wasm', capabilities: ['finding_enricher'] },
    });
    const notComponent = await unary(client.Load, client, script, auth());
    expect(notComponent.error?.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(notComponent.code).toBe('artifact_invalid');
  });
});

describe('runner API: invocation streams', () => {
  it('answers an Invoke of a plugin that is not loaded with a not_loaded result', async () => {
    const call = await invoke(
      client,
      deliverStart(nativeLoad({ pluginId: 'nobody' })),
      findingsSide,
    );
    expect(call.error).toBeUndefined();
    expect(call.result).toMatchObject({ ok: false, error_code: 'not_loaded' });
  });

  it('ends a stream that does not start with InvokeStart with INVALID_ARGUMENT', async () => {
    const call = await invoke(client, undefined, findingsSide, {
      first: { reply: { call_id: '1', secret: { found: false, value: '' } } },
    });
    expect(call.error?.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(call.code).toBe('invalid_request');
  });

  it('refuses an InvokeStart without the event context', async () => {
    const start = deliverStart(nativeLoad());
    const call = await invoke(
      client,
      { ...start, context: { ...start.context!, project_id: '' } },
      findingsSide,
    );
    expect(call.error?.code).toBe(GrpcStatus.INVALID_ARGUMENT);
  });
});
