import { credentials, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import {
  RUNNER_AUTH_METADATA_KEY,
  RUNNER_ERROR_CODE_METADATA_KEY,
  loadRunnerService,
  type HostCallReply,
  type HostCallRequest,
  type InvokeClientMessage,
  type InvokeResult,
  type InvokeServerMessage,
  type InvokeStart,
  type LoadRequest,
  type LoadResponse,
  type UnloadResponse,
} from '@platform/plugin-protocol';
import {
  FIXTURE_NODE_PATH,
  buildNativeChannelFixture,
  publisherKey,
  signedFixture,
  type FixtureManifestOptions,
} from '@platform/plugin-protocol/testing';
import type { ClientDuplexStream } from '@grpc/grpc-js';
import { transpileCacheEnv } from '@platform/testing';
import { loadPluginRunnerConfig } from '../../src/app/config/plugin-runner.config';
import { startPluginRunner, type RunningPluginRunner } from '../../src/app/runner';

export const TOKEN = 'test-runner-token-0123456789abcdef0123456789';
export const PROJECT = '11111111-1111-4111-8111-111111111111';

/** A real runner (every listener on an ephemeral loopback port) with the runner API token. */
export function startApiRunner(env: Record<string, string> = {}): Promise<RunningPluginRunner> {
  return startPluginRunner(
    loadPluginRunnerConfig({
      PLUGIN_RUNNER_HOST: '127.0.0.1',
      PLUGIN_RUNNER_PORT: '0',
      PLUGIN_RUNNER_GRPC_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      APP_ENV: 'production',
      LOG_FILE_SINK_ENABLED: 'false',
      PLUGIN_RUNNER_SHUTDOWN_GRACE_MS: '2000',
      PLUGIN_RUNNER_TOKEN: TOKEN,
      PLUGIN_NATIVE_NODE_PATH: FIXTURE_NODE_PATH,
      PLUGIN_NATIVE_STOP_TIMEOUT_MS: '1000',
      PLUGIN_NATIVE_HEALTH_INTERVAL_MS: '0',
      ...transpileCacheEnv(),
      ...env,
    }),
  );
}

type Unary<Req, Res> = (
  request: Req,
  metadata: Metadata,
  callback: (error: ServiceError | null, response?: Res) => void,
) => void;

/** A plain grpc-js client of the runner API, as any caller would build it. */
export interface RawRunnerClient extends Client {
  Load: Unary<Partial<LoadRequest>, LoadResponse>;
  Unload: Unary<{ plugin_id: string }, UnloadResponse>;
  Invoke(metadata: Metadata): ClientDuplexStream<InvokeClientMessage, InvokeServerMessage>;
}

export function runnerClient(port: number): RawRunnerClient {
  const Runner = loadRunnerService();
  return new Runner(
    `127.0.0.1:${port}`,
    credentials.createInsecure(),
  ) as unknown as RawRunnerClient;
}

/** Metadata with `authorization: Bearer <token>` (no authorization at all when null). */
export function auth(token: string | null = TOKEN): Metadata {
  const metadata = new Metadata();
  if (token !== null) metadata.set(RUNNER_AUTH_METADATA_KEY, `Bearer ${token}`);
  return metadata;
}

export interface CallOutcome<T> {
  response?: T;
  error?: ServiceError;
  /** `findsvc-error-code` of a refusal. */
  code?: string;
}

export function unary<Req, Res>(
  method: Unary<Req, Res>,
  client: Client,
  request: Req,
  metadata: Metadata,
): Promise<CallOutcome<Res>> {
  return new Promise((resolve) => {
    method.call(client, request, metadata, (error, response) => {
      if (error) {
        const code = error.metadata?.get(RUNNER_ERROR_CODE_METADATA_KEY)[0];
        resolve({ error, code: typeof code === 'string' ? code : undefined });
      } else resolve({ response });
    });
  });
}

export const publisher = publisherKey();

/** A Load request of the native fixture channel as the findings service would send it. */
export function nativeLoad(
  options: {
    pluginId?: string;
    build?: string;
    manifest?: FixtureManifestOptions;
    signed?: boolean;
    allowsNative?: boolean;
    tamper?: boolean;
    runtime?: string;
  } = {},
): LoadRequest {
  const fixture = signedFixture(
    buildNativeChannelFixture('normal', options.build),
    publisher,
    options.manifest,
  );
  const artifact = options.tamper
    ? Buffer.concat([fixture.artifact, Buffer.from('\n// tampered\n')])
    : fixture.artifact;
  return {
    plugin_id: options.pluginId ?? 'chat-api-1',
    version: String(fixture.manifest['version']),
    version_digest: fixture.digest,
    runtime: options.runtime ?? 'native',
    manifest: fixture.manifestBytes,
    signature: options.signed === false ? Buffer.alloc(0) : fixture.signature,
    source: {
      id: 'test-source',
      public_key: options.signed === false ? '' : publisher.publicKeyPem,
      allows_native: options.allowsNative ?? true,
    },
    artifact,
    permitted_hosts: [],
  };
}

export interface InvokeTranscript {
  /** Every host call the runner sent, in order. */
  hostCalls: HostCallRequest[];
  result?: InvokeResult;
  error?: ServiceError;
  code?: string;
}

/**
 * One Invoke stream: sends `start`, answers each host call with `answer(call)` and collects
 * the result (or the stream's error).
 */
export function invoke(
  client: RawRunnerClient,
  start: Partial<InvokeStart> | undefined,
  answer: (call: HostCallRequest) => Omit<HostCallReply, 'call_id'>,
  options: { metadata?: Metadata; first?: InvokeClientMessage } = {},
): Promise<InvokeTranscript> {
  const transcript: InvokeTranscript = { hostCalls: [] };
  return new Promise((resolve) => {
    const stream = client.Invoke(options.metadata ?? auth());
    stream.on('data', (message: InvokeServerMessage) => {
      if (message.message === 'host_call' && message.host_call) {
        transcript.hostCalls.push(message.host_call);
        stream.write({
          reply: { ...answer(message.host_call), call_id: message.host_call.call_id },
        });
      } else if (message.message === 'result') {
        transcript.result = message.result;
      }
    });
    stream.on('error', (error: ServiceError) => {
      transcript.error = error;
      const code = error.metadata?.get(RUNNER_ERROR_CODE_METADATA_KEY)[0];
      transcript.code = typeof code === 'string' ? code : undefined;
    });
    // Done when every message was read ('end': the runner ended its side; we end ours) and
    // the status arrived.
    let ended = false;
    let status = false;
    stream.on('end', () => {
      ended = true;
      stream.end();
      if (status) resolve(transcript);
    });
    stream.on('status', () => {
      status = true;
      if (ended) resolve(transcript);
    });
    if (options.first) stream.write(options.first);
    if (start) stream.write({ start: start as InvokeStart });
  });
}

/** InvokeStart of a channel delivery for `load`'s plugin. */
export function deliverStart(load: LoadRequest, overrides: Partial<InvokeStart> = {}): InvokeStart {
  return {
    context: {
      plugin_id: load.plugin_id,
      version_digest: load.version_digest,
      project_id: PROJECT,
      event_id: 'event-1',
    },
    capability: 'notification_channel',
    operation: 'deliver',
    payload_json: JSON.stringify({ event: { kind: 'new_findings', count: 2 } }),
    settings_json: JSON.stringify({ chat_id: '42' }),
    idempotency_key: 'delivery-1',
    deadline_ms: 0,
    ...overrides,
  };
}
