import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EnvReader } from '@platform/config';
import {
  FIXTURE_NODE_PATH,
  buildNativeChannelFixture,
  publisherKey,
  signedFixture,
} from '@platform/plugin-protocol/testing';
import { parseManifest } from '@platform/plugin-sdk';
import {
  pluginRunnerProcessEnv,
  pluginRunnerGrpcPort,
  startServiceProcess,
  type ServiceProcess,
} from '@platform/testing';
import { FINDINGS_CONFIG } from '../../src/app/config/config.tokens';
import { readPluginRunnerClientConfig } from '../../src/app/config/plugin-runner-config';
import {
  NOT_CONFIGURED_PORTS,
  type HostCallPorts,
  type PluginEventContext,
} from '../../src/modules/plugin-runner-client/host-call-ports';
import { HostCallResponder } from '../../src/modules/plugin-runner-client/host-call-responder';
import { PluginRunnerClientModule } from '../../src/modules/plugin-runner-client/plugin-runner-client.module';
import {
  PluginRunnerClient,
  type PluginLoadRequest,
} from '../../src/modules/plugin-runner-client/plugin-runner.client';
import { PluginRunnerClientError } from '../../src/modules/plugin-runner-client/plugin-runner-client.errors';

const TOKEN = 'findings-to-runner-token-0123456789abcdef';
const PROJECT = '22222222-2222-4222-8222-222222222222';
const publisher = publisherKey();

let runner: ServiceProcess;
let grpcPort: number;

/** The plugin runner as its own process (src/main.ts), as `npm run up` starts it. */
beforeAll(async () => {
  runner = startServiceProcess({
    entry: 'apps/plugin-runner/src/main.ts',
    env: pluginRunnerProcessEnv(TOKEN, {
      PLUGIN_NATIVE_NODE_PATH: FIXTURE_NODE_PATH,
      PLUGIN_NATIVE_HEALTH_INTERVAL_MS: '0',
    }),
  });
  grpcPort = await pluginRunnerGrpcPort(runner, 30_000);
}, 40_000);

afterAll(async () => {
  await runner?.stop();
});

const contexts: INestApplicationContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

/** The client as the findings service builds it: the Nest module over the typed config. */
async function clientWith(
  env: Record<string, string>,
  ports?: HostCallPorts,
): Promise<PluginRunnerClient> {
  const r = new EnvReader({ PLUGIN_RUNNER_URL: `127.0.0.1:${grpcPort}`, ...env });
  const pluginRunner = readPluginRunnerClientConfig(r);
  r.done();
  @Global()
  @Module({
    providers: [{ provide: FINDINGS_CONFIG, useValue: { pluginRunner } }],
    exports: [FINDINGS_CONFIG],
  })
  class ConfigModule {}
  @Module({
    imports: [
      ConfigModule,
      PluginRunnerClientModule.register(ports ? { ports: { useValue: ports } } : {}),
    ],
  })
  class RootModule {}
  const context = await NestFactory.createApplicationContext(RootModule, { logger: false });
  contexts.push(context);
  return context.get(PluginRunnerClient);
}

function channelLoad(pluginId: string): PluginLoadRequest {
  const fixture = signedFixture(buildNativeChannelFixture('normal'), publisher);
  return {
    pluginId,
    version: '1.0.0',
    versionDigest: fixture.digest,
    runtime: 'native',
    manifest: fixture.manifestBytes,
    signature: fixture.signature,
    source: { id: 'catalog-1', publicKey: publisher.publicKeyPem, allowsNative: true },
    artifact: fixture.artifact,
    permittedHosts: [],
  };
}

function contextOf(load: PluginLoadRequest, eventId = 'event-7'): PluginEventContext {
  return {
    pluginId: load.pluginId,
    versionDigest: load.versionDigest,
    projectId: PROJECT,
    eventId,
  };
}

async function refusalOf(promise: Promise<unknown>): Promise<PluginRunnerClientError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PluginRunnerClientError);
  return error as PluginRunnerClientError;
}

describe('plugin runner client against a real runner process', () => {
  it('loads a native channel, invokes it with the event context answering its host calls, and unloads it', async () => {
    const asked: string[] = [];
    const client = await clientWith(
      { PLUGIN_RUNNER_TOKEN: TOKEN },
      {
        ...NOT_CONFIGURED_PORTS,
        secrets: {
          getSecret: async (context, name) => {
            asked.push(`secret ${context.pluginId} ${name}`);
            return 'installation-secret';
          },
          getProjectSecret: async (context, name) => {
            asked.push(`project-secret ${context.projectId} ${context.eventId} ${name}`);
            return 'project-secret-value';
          },
        },
      },
    );
    expect(await client.checkHealth()).toBe('SERVING');
    const load = channelLoad('findings-chat-1');
    expect(await client.load(load)).toEqual({
      pluginId: 'findings-chat-1',
      version: '1.0.0',
      versionDigest: load.versionDigest,
      runtime: 'native',
      replaced: false,
    });

    const invocation = {
      context: contextOf(load),
      capability: 'notification_channel',
      operation: 'deliver',
      payload: { event: { kind: 'finding_created', id: 'f-1' } },
      settings: { chat_id: '99' },
      idempotencyKey: 'evt-7-chat',
    };
    const result = await client.invoke(invocation);
    expect(result.ok).toBe(true);
    const value = (result as { value: { duplicate: boolean; result: Record<string, unknown> } })
      .value;
    expect(value.duplicate).toBe(false);
    expect(value.result['context']).toEqual({
      plugin_id: 'findings-chat-1',
      version_digest: load.versionDigest,
      project_id: PROJECT,
      event_id: 'event-7',
    });
    expect(value.result['event']).toEqual({ kind: 'finding_created', id: 'f-1' });
    expect(value.result['secret_lengths']).toEqual({ bot_token: 20, service_token: 19 });
    // The runner's host calls were answered here, for the context this side started.
    expect(asked).toEqual([
      `project-secret ${PROJECT} event-7 bot_token`,
      'secret findings-chat-1 service_token',
    ]);

    const again = await client.invoke(invocation);
    expect(again).toMatchObject({ ok: true, value: { duplicate: true } });

    expect(await client.unload('findings-chat-1')).toEqual({ wasLoaded: true });
    expect(await client.invoke({ ...invocation, idempotencyKey: 'evt-7-b' })).toMatchObject({
      ok: false,
      error: { code: 'not_loaded' },
    });
  });

  it('attaches the secrets of an event that carries its installation: the runner asks no secret host call, an echoed secret is scrubbed', async () => {
    const asked: string[] = [];
    const client = await clientWith(
      { PLUGIN_RUNNER_TOKEN: TOKEN },
      {
        ...NOT_CONFIGURED_PORTS,
        secrets: {
          getSecret: async (_context, name) => {
            asked.push(`secret ${name}`);
            return 'installation-secret';
          },
          getProjectSecret: async (_context, name) => {
            asked.push(`project-secret ${name}`);
            return 'attached-project-secret';
          },
        },
      },
    );
    const load = channelLoad('findings-chat-5');
    await client.load(load);
    const context: PluginEventContext = {
      ...contextOf(load, 'event-9'),
      installation: {
        artifactSha256: load.versionDigest,
        enabled: true,
        manifest: parseManifest(load.manifest),
        settings: {},
        secretSettings: null,
        projectSettings: {},
        projectSecretSettings: null,
      },
    };
    const answered = jest.spyOn(HostCallResponder.prototype, 'answer');
    try {
      const ok = await client.invoke({
        context,
        capability: 'notification_channel',
        operation: 'deliver',
        payload: { event: { kind: 'finding_created', id: 'f-9' } },
        settings: { chat_id: '99' },
        idempotencyKey: 'evt-9-chat',
      });
      expect(ok).toMatchObject({ ok: true, value: { duplicate: false } });
      const value = (ok as { value: { result: Record<string, unknown> } }).value;
      expect(value.result['secret_lengths']).toEqual({ bot_token: 23, service_token: 19 });
      // Opened here, once each, for this invocation; no host call came back for them.
      expect(asked.sort()).toEqual(['project-secret bot_token', 'secret service_token']);
      expect(answered).not.toHaveBeenCalled();
      const rejected = await client.invoke({
        context,
        capability: 'notification_channel',
        operation: 'deliver',
        payload: { event: { kind: 'finding_created', id: 'f-9' } },
        settings: { chat_id: '99', mode: 'reject' },
        idempotencyKey: 'evt-9-reject',
      });
      expect(rejected).toMatchObject({ ok: false, error: { code: 'plugin_error' } });
      expect(!rejected.ok && rejected.error.message).not.toContain('attached-project-secret');
      expect(answered).not.toHaveBeenCalled();
    } finally {
      answered.mockRestore();
    }
    await client.unload('findings-chat-5');
  });

  it('answers host calls "not configured" with the default ports: the delivery fails explicitly, nothing is faked', async () => {
    const client = await clientWith({ PLUGIN_RUNNER_TOKEN: TOKEN });
    const load = channelLoad('findings-chat-2');
    await client.load(load);
    const result = await client.invoke({
      context: contextOf(load),
      capability: 'notification_channel',
      operation: 'deliver',
      payload: { event: { kind: 'finding_created', id: 'f-2' } },
      settings: {},
      idempotencyKey: 'k-1',
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'refused', detail: { reason: 'secret_unavailable', setting: 'bot_token' } },
    });
    expect(!result.ok && result.error.message).toContain('not_configured');
    await client.unload('findings-chat-2');
  });

  it('passes the runner refusals on with their codes', async () => {
    const client = await clientWith({ PLUGIN_RUNNER_TOKEN: TOKEN });
    const unpermitted = channelLoad('findings-chat-3');
    unpermitted.source.allowsNative = false;
    const refused = await refusalOf(client.load(unpermitted));
    expect(refused.code).toBe('native_not_permitted');

    const wasm = { ...channelLoad('findings-wasm-1'), runtime: 'wasm' as const };
    expect((await refusalOf(client.load(wasm))).code).toBe('manifest_invalid');
  });

  it('is refused without the right token, and refuses locally without any', async () => {
    const wrong = await clientWith({ PLUGIN_RUNNER_TOKEN: 'x'.repeat(40) });
    const denied = await refusalOf(wrong.load(channelLoad('findings-chat-4')));
    expect(denied.code).toBe('unauthenticated');
    const deniedInvoke = await refusalOf(
      wrong.invoke({
        context: contextOf(channelLoad('findings-chat-4')),
        capability: 'notification_channel',
        operation: 'deliver',
        payload: {},
        settings: {},
        idempotencyKey: 'k',
      }),
    );
    expect(deniedInvoke.code).toBe('unauthenticated');

    const none = await clientWith({});
    expect((await refusalOf(none.unload('findings-chat-4'))).code).toBe('runner_not_configured');
  });

  it('reports an unreachable runner as runner_unavailable and its health as UNREACHABLE', async () => {
    const client = await clientWith({
      PLUGIN_RUNNER_TOKEN: TOKEN,
      PLUGIN_RUNNER_URL: '127.0.0.1:1',
      PLUGIN_RUNNER_CLIENT_TIMEOUT_MS: '3000',
    });
    expect(await client.checkHealth()).toBe('UNREACHABLE');
    expect((await refusalOf(client.unload('x'))).code).toBe('runner_unavailable');
  });
});
