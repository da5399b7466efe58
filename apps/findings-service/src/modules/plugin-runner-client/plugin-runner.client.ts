import {
  credentials,
  Metadata,
  status as GrpcStatus,
  type CallOptions,
  type Client,
  type ClientDuplexStream,
  type ServiceError,
} from '@grpc/grpc-js';
import {
  RUNNER_AUTH_METADATA_KEY,
  RUNNER_ERROR_CODE_METADATA_KEY,
  RUNNER_SERVICE_NAME,
  loadHealthService,
  loadRunnerService,
  type HealthCheckResponse,
  type InvokeClientMessage,
  type InvokeResult,
  type InvokeServerMessage,
  type LoadRequest,
  type LoadResponse,
  type UnloadResponse,
} from '@platform/plugin-protocol';
import type { PluginRunnerClientConfig } from '../../app/config/plugin-runner-config';
import type { HostCallPorts, PluginEventContext, PluginSecretsPort } from './host-call-ports';
import { HostCallResponder } from './host-call-responder';
import { PluginRunnerClientError } from './plugin-runner-client.errors';
import { capPluginText } from './plugin-text';

/** A plugin version to load, as recorded at install (docs/plugins/runner-api.md, "Load"). */
export interface PluginLoadRequest {
  pluginId: string;
  version: string;
  /** Lower-case hex sha256 of `artifact`, as recorded at install. */
  versionDigest: string;
  runtime: 'wasm' | 'native';
  /** The exact manifest bytes the publisher signed. */
  manifest: Buffer;
  /** Ed25519 signature over `manifest`; empty for an unsigned source. */
  signature: Buffer;
  source: { id: string; publicKey: string; allowsNative: boolean };
  artifact: Buffer;
  /** The manifest's allowed hosts plus the hosts of admin-entered URL settings. */
  permittedHosts: string[];
}

export interface PluginLoaded {
  pluginId: string;
  version: string;
  versionDigest: string;
  runtime: string;
  /** This load replaced a loaded version (a reload). */
  replaced: boolean;
}

/** One operation of one plugin for one event of one project. */
export interface PluginInvocation {
  context: PluginEventContext;
  /** finding_enricher | finding_source | ticketing_provider | notification_channel */
  capability: string;
  /** `deliver`, `enrich`, `poll`, `create-task`, ... */
  operation: string;
  payload: Record<string, unknown>;
  /** Effective non-secret settings for the event's project. */
  settings: Record<string, unknown>;
  /** Required for `deliver`; the same on every retry of one logical call. */
  idempotencyKey?: string;
  /** The runner's default (and cap) applies when absent. */
  deadlineMs?: number;
  /**
   * Answers this invocation's `get-secret` / `get-project-secret` instead of the service's
   * secret storage (a configuration check reads the candidate secrets of a save).
   */
  secrets?: PluginSecretsPort;
}

/** How an invocation ended: the plugin's answer or a coded failure (never thrown). */
export type PluginInvocationResult =
  | { ok: true; value: unknown; durationMs: number }
  | {
      ok: false;
      error: { code: string; message: string; detail?: unknown };
      durationMs: number;
    };

/** The runner's answer to a health check of its API. */
export type RunnerHealth = 'SERVING' | 'NOT_SERVING' | 'UNREACHABLE';

type Unary<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: CallOptions,
  callback: (error: ServiceError | null, response?: Res) => void,
) => void;

interface RunnerStub extends Client {
  Load: Unary<LoadRequest, LoadResponse>;
  Unload: Unary<{ plugin_id: string }, UnloadResponse>;
  Invoke(
    metadata: Metadata,
    options: CallOptions,
  ): ClientDuplexStream<InvokeClientMessage, InvokeServerMessage>;
}

interface HealthStub extends Client {
  Check: Unary<{ service: string }, HealthCheckResponse>;
}

const HEALTH_TIMEOUT_MS = 2_000;

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PluginRunnerClientError('runner_protocol_error', 'the runner sent invalid JSON');
  }
}

/** What a scrubbed secret value is replaced with (as in the runner). */
export const REDACTED = '[redacted]';

/**
 * `value` with every occurrence of each of `secrets` replaced by `[redacted]` in every string
 * (keys too), longest secret first, as exact text. The runner scrubs too; this side removes the
 * values it answered itself whatever the runner did.
 */
export function scrubSecrets<T>(value: T, secrets: Iterable<string>): T {
  const ordered = [...new Set(secrets)].filter((s) => s !== '').sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return value;
  const text = (t: string): string =>
    ordered.reduce(
      (out, secret) => (out.includes(secret) ? out.split(secret).join(REDACTED) : out),
      t,
    );
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [text(k), walk(item)]));
    }
    return v;
  };
  return walk(value) as T;
}

/** The runner's InvokeResult as this side uses it (exported for its unit test). */
export function toResult(result: InvokeResult, secrets: Set<string>): PluginInvocationResult {
  if (result.ok) {
    return {
      ok: true,
      value: scrubSecrets(parseJson(result.value_json) ?? null, secrets),
      durationMs: result.duration_ms,
    };
  }
  const detail = scrubSecrets(parseJson(result.error_detail_json), secrets);
  return {
    ok: false,
    error: {
      code: result.error_code,
      // Scrubbed, then cut: the plugin's text is logged and answered at most 2 KB long.
      message: capPluginText(scrubSecrets(result.error_message, secrets)),
      ...(detail === undefined ? {} : { detail }),
    },
    durationMs: result.duration_ms,
  };
}

interface AttachedSecrets {
  installation: Record<string, string>;
  project: Record<string, string>;
  values: string[];
}

/**
 * The secret-marked settings a native channel gets with every delivery, opened through the
 * secrets port for this invocation only (docs/plugins/runner-api.md, "Secrets attached to
 * InvokeStart"), so the runner needs no `get-secret` / `get-project-secret` round trip. Only
 * for an event that carries its installation (a notification delivery's claim) of a native
 * plugin; undefined otherwise, or when a port refuses a name (the runner then asks the host
 * calls, and gets that refusal, as before).
 */
async function attachSecrets(
  context: PluginEventContext,
  port: PluginSecretsPort,
): Promise<AttachedSecrets | undefined> {
  const manifest = context.installation?.manifest;
  if (!manifest || manifest.runtime !== 'native') return undefined;
  const attached: AttachedSecrets = { installation: {}, project: {}, values: [] };
  try {
    for (const setting of manifest.settings) {
      if (!setting.secret) continue;
      const value = setting.per_project
        ? await port.getProjectSecret(context, setting.name)
        : await port.getSecret(context, setting.name);
      if (value === undefined) continue;
      (setting.per_project ? attached.project : attached.installation)[setting.name] = value;
      attached.values.push(value);
    }
  } catch {
    return undefined;
  }
  return attached;
}

/**
 * The findings service's client of the plugin runner (`findsvc.runner.v1.PluginRunner`,
 * @platform/plugin-protocol): Load, Unload, Invoke with the event context, answering the
 * runner's host calls on the invocation's stream through the host-call ports — for the
 * context this side started the invocation with, whatever the runner sends.
 */
export class PluginRunnerClient {
  private readonly runner: RunnerStub;
  private readonly health: HealthStub;
  private readonly responder: HostCallResponder;

  constructor(
    private readonly config: PluginRunnerClientConfig,
    private readonly ports: HostCallPorts,
    private readonly onHostCallFailure?: (error: unknown, call: string) => void,
  ) {
    const Runner = loadRunnerService();
    const Health = loadHealthService();
    this.runner = new Runner(config.target, credentials.createInsecure()) as unknown as RunnerStub;
    this.health = new Health(config.target, credentials.createInsecure()) as unknown as HealthStub;
    this.responder = new HostCallResponder(ports, onHostCallFailure);
  }

  /** Verifies and loads a plugin version in the runner (a reload when another is loaded). */
  async load(request: PluginLoadRequest): Promise<PluginLoaded> {
    const response = await this.unary(this.runner.Load, {
      plugin_id: request.pluginId,
      version: request.version,
      version_digest: request.versionDigest,
      runtime: request.runtime,
      manifest: request.manifest,
      signature: request.signature,
      source: {
        id: request.source.id,
        public_key: request.source.publicKey,
        allows_native: request.source.allowsNative,
      },
      artifact: request.artifact,
      permitted_hosts: request.permittedHosts,
    });
    return {
      pluginId: response.plugin_id,
      version: response.version,
      versionDigest: response.version_digest,
      runtime: response.runtime,
      replaced: response.replaced,
    };
  }

  /** Stops a plugin in the runner; false when it was not loaded. */
  async unload(pluginId: string): Promise<{ wasLoaded: boolean }> {
    const response = await this.unary(this.runner.Unload, { plugin_id: pluginId });
    return { wasLoaded: response.was_loaded };
  }

  /**
   * Runs one operation. Resolves with the plugin's answer or a coded failure (not loaded,
   * refused, deadline_exceeded, trap, ...); rejects with PluginRunnerClientError only when
   * the runner refused the call itself or could not be reached.
   */
  async invoke(invocation: PluginInvocation): Promise<PluginInvocationResult> {
    const metadata = this.metadata();
    const context = invocation.context;
    const secretsPort = invocation.secrets ?? this.ports.secrets;
    const responder = invocation.secrets
      ? new HostCallResponder(
          { ...this.ports, secrets: invocation.secrets },
          this.onHostCallFailure,
        )
      : this.responder;
    const attached = await attachSecrets(context, secretsPort);
    return new Promise((resolve, reject) => {
      const stream = this.runner.Invoke(metadata, { deadline: this.deadline() });
      let result: InvokeResult | undefined;
      let failure: PluginRunnerClientError | undefined;
      // The secret values attached or answered on this stream: scrubbed from what the plugin
      // answers.
      const secrets = new Set<string>(attached?.values ?? []);
      // The answer was over this client's message limit (a runner without an answer limit).
      let tooLarge: string | undefined;
      let ended = false;
      let status = false;
      const finish = () => {
        if (!ended || !status) return;
        if (tooLarge !== undefined) {
          resolve({
            ok: false,
            error: { code: 'answer_too_large', message: tooLarge },
            durationMs: 0,
          });
        } else if (failure) reject(failure);
        else if (!result) {
          reject(
            new PluginRunnerClientError(
              'runner_protocol_error',
              'the stream ended without a result',
            ),
          );
        } else {
          try {
            resolve(toResult(result, secrets));
          } catch (error) {
            reject(error as Error);
          }
        }
      };
      stream.on('data', (message: InvokeServerMessage) => {
        if (message.message === 'host_call' && message.host_call) {
          const request = message.host_call;
          void responder.answer(context, request).then((answer) => {
            if (answer.secret?.found) secrets.add(answer.secret.value);
            if (!ended) stream.write({ reply: { ...answer, call_id: request.call_id } });
          });
        } else if (message.message === 'result' && message.result) {
          result = message.result;
        }
      });
      stream.on('error', (error: ServiceError) => {
        if (
          error.code === GrpcStatus.RESOURCE_EXHAUSTED &&
          !error.metadata?.get(RUNNER_ERROR_CODE_METADATA_KEY).length
        ) {
          tooLarge = `the plugin's answer is larger than this client accepts (${error.details})`;
        }
        failure = PluginRunnerClientError.fromServiceError(error);
      });
      stream.on('end', () => {
        ended = true;
        stream.end();
        finish();
      });
      stream.on('status', () => {
        status = true;
        finish();
      });
      stream.write({
        start: {
          context: {
            plugin_id: context.pluginId,
            version_digest: context.versionDigest,
            project_id: context.projectId,
            event_id: context.eventId,
          },
          capability: invocation.capability,
          operation: invocation.operation,
          payload_json: JSON.stringify(invocation.payload),
          settings_json: JSON.stringify(invocation.settings),
          idempotency_key: invocation.idempotencyKey ?? '',
          deadline_ms: invocation.deadlineMs ?? 0,
          ...(attached
            ? {
                secrets_attached: true,
                installation_secrets: attached.installation,
                project_secrets: attached.project,
              }
            : {}),
        },
      });
    });
  }

  /** gRPC health of the runner API (for readiness probes); never throws. */
  checkHealth(): Promise<RunnerHealth> {
    return new Promise((resolve) => {
      this.health.Check(
        { service: RUNNER_SERVICE_NAME },
        new Metadata(),
        { deadline: Date.now() + HEALTH_TIMEOUT_MS },
        (error, response) =>
          resolve(
            error ? 'UNREACHABLE' : response?.status === 'SERVING' ? 'SERVING' : 'NOT_SERVING',
          ),
      );
    });
  }

  close(): void {
    this.runner.close();
    this.health.close();
  }

  private metadata(): Metadata {
    if (!this.config.token) {
      throw new PluginRunnerClientError(
        'runner_not_configured',
        'PLUGIN_RUNNER_TOKEN is not set in the findings service',
      );
    }
    const metadata = new Metadata();
    metadata.set(RUNNER_AUTH_METADATA_KEY, `Bearer ${this.config.token}`);
    return metadata;
  }

  private deadline(): number {
    return Date.now() + this.config.timeoutMs;
  }

  private unary<Req, Res>(method: Unary<Req, Res>, request: Req): Promise<Res> {
    const metadata = this.metadata();
    return new Promise((resolve, reject) => {
      method.call(
        this.runner,
        request,
        metadata,
        { deadline: this.deadline() },
        (error, response) => {
          if (error) reject(PluginRunnerClientError.fromServiceError(error));
          else if (!response) {
            reject(new PluginRunnerClientError('runner_protocol_error', 'empty answer'));
          } else resolve(response);
        },
      );
    });
  }
}
