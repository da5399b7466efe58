import {
  status as GrpcStatus,
  type sendUnaryData,
  type ServerDuplexStream,
  type ServerUnaryCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import {
  PLUGIN_CAPABILITIES,
  type PluginCapability,
  type PluginRuntime,
} from '@platform/plugin-sdk';
import type {
  InvokeClientMessage,
  InvokeResult,
  InvokeServerMessage,
  InvokeStart,
  LoadRequest,
  LoadResponse,
  UnloadRequest,
  UnloadResponse,
} from '@platform/plugin-protocol';
import type { Logger } from 'pino';
import {
  PluginLoadError,
  type InvocationRequest,
  type InvocationResult,
  type JsonValue,
  type PluginHost,
} from '../plugin-host/plugin-host';
import { limitAnswer } from './answer-limit';
import { admitLoad } from './load-admission';
import { refusal, type RunnerApiToken } from './runner-api-auth';
import { InvocationSession, type StreamHostCallBroker } from './stream-host-call-broker';

/** The execution tiers this runner has (N1's `wasm`, the native channel host). */
export type PluginHosts = Partial<Record<PluginRuntime, PluginHost>>;

type InvokeCall = ServerDuplexStream<InvokeClientMessage, InvokeServerMessage>;

interface LoadedPlugin {
  runtime: PluginRuntime;
  versionDigest: string;
  version: string;
}

export interface RunnerApiOptions {
  hosts: PluginHosts;
  broker: StreamHostCallBroker;
  token: RunnerApiToken;
  logger: Logger;
  /** How long a host call waits for the findings service's reply. */
  hostCallTimeoutMs: number;
}

/** An invocation must start within this after the stream opens. */
const START_TIMEOUT_MS = 10_000;

function jsonObject(text: string, what: string): { [name: string]: JsonValue } {
  if (text.trim() === '') return {};
  const value = JSON.parse(text) as unknown;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${what} must be a JSON object`);
  }
  return value as { [name: string]: JsonValue };
}

function toResult(result: InvocationResult): InvokeResult {
  if (result.ok) {
    return {
      ok: true,
      value_json: JSON.stringify(result.value),
      error_code: '',
      error_message: '',
      error_detail_json: '',
      duration_ms: Math.round(result.durationMs),
    };
  }
  return {
    ok: false,
    value_json: '',
    error_code: result.error.code,
    error_message: result.error.message,
    error_detail_json: result.error.detail === undefined ? '' : JSON.stringify(result.error.detail),
    duration_ms: Math.round(result.durationMs),
  };
}

function failed(
  code: Extract<InvocationResult, { ok: false }>['error']['code'],
  message: string,
  detail?: JsonValue,
): InvocationResult {
  return {
    ok: false,
    error: detail === undefined ? { code, message } : { code, message, detail },
    durationMs: 0,
  };
}

/**
 * `findsvc.runner.v1.PluginRunner` (docs/plugins/runner-api.md): Load admits a plugin version
 * (runner-side checks, then the host of its runtime), Unload releases it, Invoke runs one
 * operation for one event and streams the host calls the runner cannot answer itself back to
 * the findings service on the same stream. Every call needs the runner API token.
 */
export class RunnerApiGrpcService {
  private readonly loaded = new Map<string, LoadedPlugin>();
  private readonly loading = new Map<string, Promise<unknown>>();
  private stopping = false;

  constructor(private readonly options: RunnerApiOptions) {}

  implementation(): UntypedServiceImplementation {
    return {
      Load: (
        call: ServerUnaryCall<LoadRequest, LoadResponse>,
        callback: sendUnaryData<LoadResponse>,
      ) => void this.load(call, callback),
      Unload: (
        call: ServerUnaryCall<UnloadRequest, UnloadResponse>,
        callback: sendUnaryData<UnloadResponse>,
      ) => void this.unload(call, callback),
      Invoke: (call: InvokeCall) => this.invoke(call),
    };
  }

  /** New Loads and Invokes are refused from now on (the runner is stopping). */
  enterShutdown(): void {
    this.stopping = true;
  }

  private async load(
    call: ServerUnaryCall<LoadRequest, LoadResponse>,
    callback: sendUnaryData<LoadResponse>,
  ): Promise<void> {
    const denied = this.options.token.check(call.metadata);
    if (denied) return callback(denied);
    if (this.stopping) return callback(refusal('runner_stopping', 'the runner is stopping'));
    const request = call.request;
    const previous = this.loading.get(request.plugin_id) ?? Promise.resolve();
    const attempt = previous.catch(() => undefined).then(() => this.loadNow(request));
    this.loading.set(request.plugin_id, attempt);
    try {
      callback(null, await attempt);
    } catch (error) {
      if (error instanceof PluginLoadError) {
        this.options.logger.warn(
          { plugin_id: request.plugin_id, code: error.code, err: error.message },
          'plugin load refused',
        );
        callback(refusal(error.code, error.message));
      } else {
        this.options.logger.error(
          { plugin_id: request.plugin_id, err: error },
          'plugin load failed',
        );
        callback(
          refusal(
            'load_refused',
            `the ${request.runtime || 'wasm'} host failed to load the plugin`,
          ),
        );
      }
    } finally {
      if (this.loading.get(request.plugin_id) === attempt) this.loading.delete(request.plugin_id);
    }
  }

  private async loadNow(request: LoadRequest): Promise<LoadResponse> {
    const { runtime, artifact } = admitLoad(request);
    const host = this.options.hosts[runtime];
    if (!host) {
      throw new PluginLoadError('runtime_unavailable', `this runner has no ${runtime} host`);
    }
    await host.load(artifact);
    const before = this.loaded.get(artifact.pluginId);
    this.loaded.set(artifact.pluginId, {
      runtime,
      versionDigest: artifact.versionDigest,
      version: artifact.manifest.version,
    });
    if (before && before.runtime !== runtime) {
      await this.options.hosts[before.runtime]?.unload(artifact.pluginId);
    }
    this.options.logger.info(
      {
        plugin_id: artifact.pluginId,
        version: artifact.manifest.version,
        runtime,
        digest: artifact.versionDigest,
        replaced: before !== undefined,
      },
      'plugin loaded',
    );
    return {
      plugin_id: artifact.pluginId,
      version: artifact.manifest.version,
      version_digest: artifact.versionDigest,
      runtime,
      replaced: before !== undefined,
    };
  }

  private async unload(
    call: ServerUnaryCall<UnloadRequest, UnloadResponse>,
    callback: sendUnaryData<UnloadResponse>,
  ): Promise<void> {
    const denied = this.options.token.check(call.metadata);
    if (denied) return callback(denied);
    const pluginId = call.request.plugin_id;
    await this.loading.get(pluginId)?.catch(() => undefined);
    const loaded = this.loaded.get(pluginId);
    this.loaded.delete(pluginId);
    try {
      if (loaded) await this.options.hosts[loaded.runtime]?.unload(pluginId);
      callback(null, { was_loaded: loaded !== undefined });
    } catch (error) {
      this.options.logger.error({ plugin_id: pluginId, err: error }, 'plugin unload failed');
      callback({ code: GrpcStatus.INTERNAL, details: 'unload failed' });
    }
  }

  private invoke(call: InvokeCall): void {
    const denied = this.options.token.check(call.metadata);
    if (denied) {
      call.emit('error', denied);
      return;
    }
    if (this.stopping) {
      call.emit('error', refusal('runner_stopping', 'the runner is stopping'));
      return;
    }
    let session: InvocationSession | undefined;
    let finished = false;
    const fail = (details: string) => {
      if (finished) return;
      finished = true;
      clearTimeout(startTimer);
      session?.close();
      call.emit('error', refusal('invalid_request', details));
    };
    const startTimer = setTimeout(
      () => fail(`no InvokeStart within ${START_TIMEOUT_MS} ms`),
      START_TIMEOUT_MS,
    );
    call.on('data', (message: InvokeClientMessage) => {
      if (message.message === 'start' && message.start && !session) {
        clearTimeout(startTimer);
        session = new InvocationSession((out) => {
          if (!finished) call.write(out);
        }, this.options.hostCallTimeoutMs);
        void this.run(message.start, session).then(
          (result) => {
            if (finished) return;
            finished = true;
            session?.close();
            call.write({ result: limitAnswer(toResult(result)) });
            call.end();
          },
          (error: unknown) => fail((error as Error).message),
        );
      } else if (message.message === 'reply' && message.reply && session) {
        session.answer(message.reply);
      } else {
        fail('expected one InvokeStart first, then HostCallReply messages only');
      }
    });
    const gone = () => {
      clearTimeout(startTimer);
      session?.close();
    };
    call.on('cancelled', gone);
    call.on('error', gone);
    // The client stopped writing: host calls can no longer be answered, they fail at once.
    call.on('end', () => session?.close());
  }

  /** Checks the start message and runs the invocation on its plugin's host. */
  private async run(start: InvokeStart, session: InvocationSession): Promise<InvocationResult> {
    const context = start.context;
    if (!context || !context.plugin_id || !context.project_id || !context.event_id) {
      throw new Error(
        'InvokeStart needs the context: plugin_id, version_digest, project_id, event_id',
      );
    }
    if (
      !(PLUGIN_CAPABILITIES as readonly string[]).includes(start.capability) ||
      !start.operation
    ) {
      throw new Error('InvokeStart needs a known capability and an operation');
    }
    const capability = start.capability as PluginCapability;
    const loaded = this.loaded.get(context.plugin_id);
    if (!loaded) return failed('not_loaded', `plugin ${context.plugin_id} is not loaded`);
    // A ticketing provider can never run native (also refused by the native host itself).
    if (loaded.runtime === 'native' && capability === 'ticketing_provider') {
      return failed('refused', 'a ticketing provider can never run native', {
        reason: 'ticketing_provider_native',
      });
    }
    let payload: { [name: string]: JsonValue };
    let settings: { [name: string]: JsonValue };
    try {
      payload = jsonObject(start.payload_json, 'payload_json');
      settings = jsonObject(start.settings_json, 'settings_json');
    } catch (error) {
      return failed('invalid_payload', (error as Error).message);
    }
    const host = this.options.hosts[loaded.runtime];
    if (!host) return failed('not_loaded', `this runner has no ${loaded.runtime} host`);
    const request: InvocationRequest = {
      pluginId: context.plugin_id,
      versionDigest: context.version_digest,
      projectId: context.project_id,
      eventId: context.event_id,
      capability,
      operation: start.operation,
      payload,
      settings,
      deadlineMs: start.deadline_ms > 0 ? start.deadline_ms : undefined,
      idempotencyKey: start.idempotency_key || undefined,
      ...(start.secrets_attached
        ? {
            attachedSecrets: {
              installation: { ...start.installation_secrets },
              project: { ...start.project_secrets },
            },
          }
        : {}),
    };
    const close = this.options.broker.open(
      {
        pluginId: request.pluginId,
        versionDigest: request.versionDigest,
        projectId: request.projectId,
        eventId: request.eventId,
      },
      session,
    );
    try {
      return await host.invoke(request);
    } finally {
      close();
    }
  }
}
