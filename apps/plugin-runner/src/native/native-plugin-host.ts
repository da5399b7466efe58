import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import type { DeliverResponse } from '@platform/plugin-protocol';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import {
  PluginLoadError,
  NO_PLUGIN_HOST_OBSERVER,
  type HostCallBroker,
  type HostCallContext,
  type InvocationErrorCode,
  type InvocationRequest,
  type InvocationResult,
  type JsonValue,
  type LoadedArtifact,
  type PluginHost,
  type PluginHostObserver,
} from '../plugin-host/plugin-host';
import { DeliveredKeys } from './delivered-keys';
import { HostCallTokens } from './host-call-tokens';
import { DeliveryRateLimit } from './delivery-rate-limit';
import { NativeChannel, NativeChannelUnavailable, type NativeChannelEvent } from './native-channel';
import type { NativeLimits } from './native-limits';
import type { NativeEgressFlags, NativeTools } from './native-process';
import { nativeCommand, verifyNativeProgram } from './native-program';
import { SecretScrubber } from '../plugin-host/secret-scrubber';

/** The one operation of a notification channel. */
export const DELIVER_OPERATION = 'deliver';
const MAX_IDEMPOTENCY_KEY = 200;
/** gRPC codes of a call whose connection to the plugin broke (a crash during the call). */
const CONNECTION_LOST: number[] = [
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.CANCELLED,
  GrpcStatus.INTERNAL,
];
const CRASH_SETTLE_MS = 1000;
const PRLIMIT_CANDIDATES = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/sbin/prlimit'];

/** What the runner's metrics and status board hear from the native tier. */
export interface NativeHostEvents {
  /** A plugin process was restarted (crash, failed health check, failed restart). */
  processRestarted(event: { pluginId: string; reason: string }): void;
  /** A plugin's serving status (`native:<plugin id>` on the board); undefined when unloaded. */
  statusChanged(event: { pluginId: string; serving: boolean | undefined }): void;
}

export const NO_NATIVE_HOST_EVENTS: NativeHostEvents = {
  processRestarted: () => undefined,
  statusChanged: () => undefined,
};

export interface NativePluginHostOptions {
  limits: NativeLimits;
  broker: HostCallBroker;
  logger: Logger;
  observer?: PluginHostObserver;
  events?: NativeHostEvents;
  /** Defaults: the runner's Node binary; prlimit when installed. */
  tools?: NativeTools;
  now?: () => number;
  /** Sees every supervisor event (tests wait for restarts with it). */
  onChannelEvent?: (pluginId: string, event: NativeChannelEvent) => void;
  /** The runner's PLUGIN_EGRESS_ALLOW_*, mirrored into every process (default: both false). */
  egress?: NativeEgressFlags;
}

interface LoadedChannel {
  artifact: LoadedArtifact;
  channel: NativeChannel;
}

/** Per plugin id, across reloads: delivered keys, rate budget, secret values to scrub. */
interface DeliveryState {
  delivered: DeliveredKeys;
  inFlight: Map<string, Promise<InvocationResult>>;
  rate: DeliveryRateLimit;
  scrubber: SecretScrubber;
}

type Failure = Extract<InvocationResult, { ok: false }>['error'];

function failure(code: InvocationErrorCode, message: string, detail?: JsonValue): Failure {
  return detail === undefined ? { code, message } : { code, message, detail };
}

function isServiceError(error: unknown): error is ServiceError {
  return typeof (error as ServiceError)?.code === 'number';
}

/**
 * A secret setting's value from the secrets the findings service attached to the invocation:
 * per-project settings from the project's, the others from the installation's (own
 * properties only); undefined when it has no value.
 */
function attachedSecret(
  attached: NonNullable<InvocationRequest['attachedSecrets']>,
  name: string,
  perProject: boolean,
): string | undefined {
  const source = perProject ? attached.project : attached.installation;
  return Object.prototype.hasOwnProperty.call(source, name) ? source[name] : undefined;
}

function findPrlimit(): string | undefined {
  return PRLIMIT_CANDIDATES.find((path) => existsSync(path));
}

/**
 * Tier 2 (docs/plugins/native.md): notification channels as separate processes speaking
 * gRPC over a unix socket. Loads only what `verifyNativeProgram` accepts (signed source with
 * allows_native, channel capability only, digest verified); delivers with an idempotency key
 * (a delivered key is answered from memory, not delivered twice), a rate limit and a deadline;
 * hands the channel the secret-marked settings its manifest declares: those the findings
 * service attached to the invocation, or else fetched through the broker for the event's
 * project.
 */
export class NativePluginHost implements PluginHost {
  private readonly plugins = new Map<string, LoadedChannel>();
  private readonly deliveries = new Map<string, DeliveryState>();
  private readonly loading = new Map<string, Promise<unknown>>();
  private readonly retiring = new Set<Promise<void>>();
  private readonly observer: PluginHostObserver;
  private readonly events: NativeHostEvents;
  private readonly tools: NativeTools;
  private readonly now: () => number;
  /** Tokens of the host calls of Deliver calls in flight (ChannelHost). */
  readonly hostCallTokens = new HostCallTokens();
  private closing?: Promise<void>;

  constructor(private readonly options: NativePluginHostOptions) {
    this.observer = options.observer ?? NO_PLUGIN_HOST_OBSERVER;
    this.events = options.events ?? NO_NATIVE_HOST_EVENTS;
    this.tools = options.tools ?? { nodePath: process.execPath, prlimitPath: findPrlimit() };
    this.now = options.now ?? Date.now;
  }

  /** The running channel of a plugin (tests: its pid, its state). */
  channelOf(pluginId: string): NativeChannel | undefined {
    return this.plugins.get(pluginId)?.channel;
  }

  load(artifact: LoadedArtifact): Promise<void> {
    const previous = this.loading.get(artifact.pluginId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.loadNow(artifact));
    this.loading.set(artifact.pluginId, next);
    return next.finally(() => {
      if (this.loading.get(artifact.pluginId) === next) this.loading.delete(artifact.pluginId);
    });
  }

  async unload(pluginId: string): Promise<void> {
    await this.loading.get(pluginId)?.catch(() => undefined);
    const loaded = this.plugins.get(pluginId);
    this.plugins.delete(pluginId);
    this.deliveries.delete(pluginId);
    if (loaded) {
      await loaded.channel.stop();
      this.events.statusChanged({ pluginId, serving: undefined });
      this.options.logger.info({ plugin_id: pluginId }, 'native plugin unloaded');
    }
  }

  async invoke(call: InvocationRequest): Promise<InvocationResult> {
    const started = this.now();
    let result: InvocationResult;
    try {
      result = await this.deliver(call, started);
    } catch (error) {
      const scrub = this.deliveries.get(call.pluginId)?.scrubber;
      const message = (error as Error).message ?? String(error);
      result = {
        ok: false,
        error: failure('trap', scrub ? scrub.scrub(message) : message),
        durationMs: this.now() - started,
      };
    }
    this.observer.invocationFinished({
      pluginId: call.pluginId,
      runtime: 'native',
      capability: call.capability,
      operation: call.operation,
      outcome: result.ok ? 'ok' : result.error.code,
      durationMs: result.durationMs,
    });
    return result;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.loading.values()].map((p) => p.catch(() => undefined)));
      const ids = [...this.plugins.keys()];
      await Promise.all(ids.map((id) => this.unload(id)));
      await Promise.all(this.retiring);
    })();
    return this.closing;
  }

  private async loadNow(artifact: LoadedArtifact): Promise<void> {
    if (this.closing) throw new PluginLoadError('runner_stopping', 'the runner is stopping');
    const program = verifyNativeProgram(artifact);
    const { pluginId } = artifact;
    const state = this.deliveryState(pluginId);
    const memory = nativeCommand(program, '', this.options.limits, this.tools).memoryEnforced;
    if (memory === 'none') {
      this.options.logger.warn(
        { plugin_id: pluginId },
        'prlimit is not installed: the memory limit of this native executable is not enforced',
      );
    }
    const channel = new NativeChannel({
      pluginId,
      program,
      limits: this.options.limits,
      tools: this.tools,
      logger: this.options.logger,
      scrub: (text) => state.scrubber.scrub(text),
      now: this.now,
      onEvent: (event) => this.onChannelEvent(pluginId, channel, event),
      hostCalls: { tokens: this.hostCallTokens, broker: this.options.broker },
      egress: this.options.egress,
    });
    try {
      await channel.start();
    } catch (error) {
      await channel.stop();
      throw error instanceof PluginLoadError
        ? error
        : new PluginLoadError('plugin_start_failed', (error as Error).message);
    }
    if (this.closing) {
      await channel.stop();
      throw new PluginLoadError('runner_stopping', 'the runner is stopping');
    }
    const old = this.plugins.get(pluginId);
    this.plugins.set(pluginId, { artifact, channel });
    this.options.logger.info(
      {
        plugin_id: pluginId,
        version: artifact.manifest.version,
        digest: program.digest,
        kind: program.kind,
        memory_limit: memory,
        pid: channel.pid,
        reload: old !== undefined,
      },
      'native plugin loaded',
    );
    this.publishStatus(pluginId, channel);
    if (old) {
      const retiring = old.channel.stop();
      this.retiring.add(retiring);
      void retiring.finally(() => this.retiring.delete(retiring));
    }
  }

  private async deliver(call: InvocationRequest, started: number): Promise<InvocationResult> {
    const done = (outcome: { ok: true; value: JsonValue } | Failure): InvocationResult =>
      'code' in outcome
        ? { ok: false, error: outcome, durationMs: this.now() - started }
        : { ok: true, value: outcome.value, durationMs: this.now() - started };

    const loaded = this.plugins.get(call.pluginId);
    if (!loaded) return done(failure('not_loaded', `plugin ${call.pluginId} is not loaded`));
    // A ticketing provider can never run native: refused at load, and here again at call.
    if (
      call.capability === 'ticketing_provider' ||
      loaded.artifact.manifest.capabilities.includes('ticketing_provider')
    ) {
      return done(
        failure('refused', 'a ticketing provider can never run native', {
          reason: 'ticketing_provider_native',
        }),
      );
    }
    if (call.versionDigest !== loaded.artifact.versionDigest) {
      return done(
        failure(
          'version_mismatch',
          `plugin ${call.pluginId} runs version ${loaded.artifact.versionDigest}, not ${call.versionDigest}`,
        ),
      );
    }
    if (call.capability !== 'notification_channel' || call.operation !== DELIVER_OPERATION) {
      return done(
        failure(
          'unsupported_operation',
          `a native channel answers notification_channel/${DELIVER_OPERATION} only, not ${call.capability}/${call.operation}`,
        ),
      );
    }
    const key = call.idempotencyKey ?? '';
    if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY) {
      return done(
        failure(
          'invalid_payload',
          `deliver needs an idempotency key of 1-${MAX_IDEMPOTENCY_KEY} characters`,
        ),
      );
    }
    const event = call.payload['event'];
    if (
      event === undefined ||
      event === null ||
      typeof event !== 'object' ||
      Array.isArray(event)
    ) {
      return done(failure('invalid_payload', 'deliver needs the payload {"event": {...}}'));
    }

    const state = this.deliveryState(call.pluginId);
    const memoryKey = DeliveredKeys.key(call.projectId, key);
    const earlier = state.delivered.get(memoryKey);
    if (earlier !== undefined) return done({ ok: true, value: asDuplicate(earlier) });
    const pending = state.inFlight.get(memoryKey);
    if (pending) {
      const result = await pending;
      return result.ok ? done({ ok: true, value: asDuplicate(result.value) }) : result;
    }
    if (!state.rate.take()) {
      return done(
        failure(
          'overloaded',
          `plugin ${call.pluginId} used up its ${this.options.limits.ratePerMinute} deliveries per minute`,
          { reason: 'rate_limited' },
        ),
      );
    }
    const attempt = this.attemptDelivery(call, loaded, state, started).then(done);
    state.inFlight.set(memoryKey, attempt);
    try {
      const result = await attempt;
      if (result.ok) state.delivered.remember(memoryKey, result.value);
      return result;
    } finally {
      state.inFlight.delete(memoryKey);
    }
  }

  private async attemptDelivery(
    call: InvocationRequest,
    loaded: LoadedChannel,
    state: DeliveryState,
    started: number,
  ): Promise<{ ok: true; value: JsonValue } | Failure> {
    const { limits } = this.options;
    const deadlineAt =
      started + Math.min(call.deadlineMs ?? limits.callTimeoutMs, limits.callTimeoutMs);
    const context: HostCallContext = {
      pluginId: call.pluginId,
      versionDigest: call.versionDigest,
      projectId: call.projectId,
      eventId: call.eventId,
    };
    const secrets: Record<string, string> = {};
    for (const setting of loaded.artifact.manifest.settings.filter((s) => s.secret)) {
      let value: string | undefined;
      const attached = call.attachedSecrets;
      try {
        value = attached
          ? attachedSecret(attached, setting.name, setting.per_project === true)
          : setting.per_project
            ? await this.options.broker.getProjectSecret(context, setting.name)
            : await this.options.broker.getSecret(context, setting.name);
      } catch (error) {
        return failure(
          'refused',
          `secret setting ${setting.name} could not be read: ${(error as Error).message}`,
          { reason: 'secret_unavailable', setting: setting.name },
        );
      }
      if (value !== undefined) {
        state.scrubber.add(value);
        secrets[setting.name] = value;
      }
    }
    let process;
    try {
      process = await loaded.channel.ready(deadlineAt);
    } catch (error) {
      if (error instanceof NativeChannelUnavailable) {
        if (error.reason === 'deadline') return failure('deadline_exceeded', error.message);
        if (error.reason === 'stopped') return failure('not_loaded', error.message);
        return failure('refused', error.message, { reason: 'plugin_failed' });
      }
      throw error;
    }
    const settings: Record<string, string> = {};
    for (const [name, value] of Object.entries(call.settings)) {
      if (value !== null)
        settings[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    let response: DeliverResponse;
    const grant = this.hostCallTokens.mint(call.pluginId, context);
    try {
      response = await process.deliver(
        {
          idempotency_key: call.idempotencyKey as string,
          context: {
            plugin_id: call.pluginId,
            version_digest: call.versionDigest,
            project_id: call.projectId,
            event_id: call.eventId,
          },
          event_json: JSON.stringify(call.payload['event']),
          settings,
          secrets,
          host_call_token: grant.token,
        },
        Math.max(1, deadlineAt - this.now()),
      );
    } catch (error) {
      if (isServiceError(error) && CONNECTION_LOST.includes(error.code)) {
        // Let the supervisor see the crash before answering, so the next call waits for the
        // restarted process instead of reaching the dead one.
        await process.waitExit(CRASH_SETTLE_MS);
      }
      return this.callFailure(error, state.scrubber);
    } finally {
      grant.release();
    }
    const message = state.scrubber.scrub(response.message);
    const result = parseResult(state.scrubber.scrub(response.result_json));
    switch (response.outcome) {
      case 'DELIVERED':
        return { ok: true, value: { delivered: true, duplicate: false, message, result } };
      case 'REJECTED':
        return failure('plugin_error', message || 'the channel rejected the delivery', {
          outcome: 'rejected',
          retryable: false,
        });
      case 'FAILED':
      case 'OUTCOME_UNSPECIFIED':
        // The plugin's result carries the target's wait (`retry_after_seconds`) to the caller.
        return failure('plugin_error', message || 'the channel could not deliver', {
          outcome: 'failed',
          retryable: true,
          ...(result === null ? {} : { result }),
        });
    }
  }

  private callFailure(error: unknown, scrubber: SecretScrubber): Failure {
    if (!isServiceError(error)) throw error;
    const details = scrubber.scrub(error.details ?? error.message);
    if (error.code === GrpcStatus.DEADLINE_EXCEEDED) {
      return failure('deadline_exceeded', `the channel did not answer in time: ${details}`);
    }
    if (CONNECTION_LOST.includes(error.code)) {
      return failure('trap', `the plugin process failed during the call: ${details}`);
    }
    return failure('plugin_error', `the channel answered ${GrpcStatus[error.code]}: ${details}`, {
      outcome: 'failed',
      retryable: true,
    });
  }

  private deliveryState(pluginId: string): DeliveryState {
    let state = this.deliveries.get(pluginId);
    if (!state) {
      const { limits } = this.options;
      state = {
        delivered: new DeliveredKeys(
          limits.idempotencyWindowSeconds * 1000,
          limits.idempotencyMaxKeys,
          this.now,
        ),
        inFlight: new Map(),
        rate: new DeliveryRateLimit(limits.ratePerMinute, this.now),
        scrubber: new SecretScrubber(),
      };
      this.deliveries.set(pluginId, state);
    }
    return state;
  }

  private onChannelEvent(
    pluginId: string,
    channel: NativeChannel,
    event: NativeChannelEvent,
  ): void {
    this.options.onChannelEvent?.(pluginId, event);
    if (event.kind === 'restart') {
      this.events.processRestarted({ pluginId, reason: event.reason });
      this.options.logger.warn(
        {
          plugin_id: pluginId,
          reason: event.reason,
          delay_ms: event.delayMs,
          restarts: event.restartsInWindow,
        },
        'native plugin process restarting',
      );
    }
    if (event.kind === 'state' && this.plugins.get(pluginId)?.channel === channel) {
      this.publishStatus(pluginId, channel);
    }
  }

  private publishStatus(pluginId: string, channel: NativeChannel): void {
    const ready = channel.status === 'ready';
    this.events.statusChanged({ pluginId, serving: ready });
    this.observer.poolChanged({
      pluginId,
      runtime: 'native',
      idle: ready && !channel.busy ? 1 : 0,
      busy: ready && channel.busy ? 1 : 0,
    });
  }
}

function asDuplicate(value: JsonValue): JsonValue {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? { ...value, duplicate: true }
    : value;
}

function parseResult(text: string): JsonValue {
  if (!text) return null;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
