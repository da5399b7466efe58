import {
  artifactDigest,
  CAPABILITY_EXPORTS,
  type PluginManifest,
  SUPPORTED_WIT_VERSIONS,
  witTypeMismatch,
} from '@platform/plugin-sdk';
import type { Logger } from 'pino';
import type { SandboxLimits } from '../app/config/sandbox.config';
import type { EgressGuard } from '@platform/egress';
import {
  DEFAULT_HOST_CALL_LIMITS,
  type HostCallLimits,
  PluginHostCalls,
} from '../host-calls/plugin-host-calls';
import { PluginLogSink } from '../host-calls/plugin-log';
import { SecretScrubber } from '../plugin-host/secret-scrubber';
import {
  type HostCallBroker,
  type InvocationErrorCode,
  type InvocationRequest,
  type InvocationResult,
  type JsonValue,
  type LoadedArtifact,
  NO_PLUGIN_HOST_OBSERVER,
  type PluginHost,
  PluginLoadError,
  type PluginHostObserver,
} from '../plugin-host/plugin-host';
import { compileComponentCached } from './compile/component-compiler';
import { PluginPool, type PoolOutcome } from './pool/plugin-pool';
import { SandboxCapacity } from './pool/sandbox-capacity';

export interface WasmPluginHostDeps {
  limits: SandboxLimits;
  broker: HostCallBroker;
  egress: EgressGuard;
  logger: Logger;
  observer?: PluginHostObserver;
  hostCallLimits?: HostCallLimits;
  /** How long the instance of an event's last call waits for the next call of that event. */
  eventInstanceIdleMs?: number;
  /** V8 heap of a sandbox thread (the generated glue's JavaScript). */
  threadHeapLimitMb?: number;
  /** Longest time transpiling one component may take at load. */
  compileTimeoutMs?: number;
}

/** One loaded version of a plugin. */
interface PluginVersion {
  pluginId: string;
  digest: string;
  manifest: PluginManifest;
  pool: PluginPool;
  hostCalls: PluginHostCalls;
  /** The plugin's scrubber (kept by calls that finish after an unload). */
  scrubber: SecretScrubber;
}

/** The parts of a plugin that outlive a reload: its scrubber and its log rate. */
interface PluginState {
  scrubber: SecretScrubber;
  log: PluginLogSink;
}

const DEFAULT_EVENT_INSTANCE_IDLE_MS = 2_000;

/**
 * Tier 1: WebAssembly components in sandbox threads (docs/plugins/). `load` transpiles the
 * component with jco on this host, refuses anything that imports more than the host
 * interface, caps its memory and compiles it once; calls run on the plugin's pool of warm
 * threads with a hard deadline. A second `load` of a plugin swaps the version: new calls go
 * to the new pool at once, the old pool drains (accepted calls finish there) and stops.
 */
export class WasmPluginHost implements PluginHost {
  private readonly versions = new Map<string, PluginVersion>();
  private readonly state = new Map<string, PluginState>();
  private readonly draining = new Set<Promise<void>>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly capacity: SandboxCapacity;
  private readonly observer: PluginHostObserver;
  private closed = false;

  constructor(private readonly deps: WasmPluginHostDeps) {
    this.capacity = new SandboxCapacity(deps.limits.globalLimit);
    this.observer = deps.observer ?? NO_PLUGIN_HOST_OBSERVER;
  }

  /** The digest of the version that serves new calls of a plugin. */
  loadedVersion(pluginId: string): string | undefined {
    return this.versions.get(pluginId)?.digest;
  }

  /** Threads of a plugin's current version (tests, metrics). */
  poolSize(pluginId: string): { idle: number; busy: number; starting: number } | undefined {
    return this.versions.get(pluginId)?.pool.size;
  }

  load(artifact: LoadedArtifact): Promise<void> {
    // Loads of one plugin run one after the other, so the last one wins.
    const previous = this.loading.get(artifact.pluginId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.loadNow(artifact));
    this.loading.set(artifact.pluginId, next);
    void next.then(
      () => this.forgetLoad(artifact.pluginId, next),
      () => this.forgetLoad(artifact.pluginId, next),
    );
    return next;
  }

  unload(pluginId: string): Promise<void> {
    // Without a load in progress the plugin stops taking calls at once (synchronously).
    const pending = this.loading.get(pluginId);
    return pending
      ? pending.catch(() => undefined).then(() => this.unloadNow(pluginId))
      : this.unloadNow(pluginId);
  }

  private async unloadNow(pluginId: string): Promise<void> {
    const version = this.versions.get(pluginId);
    this.versions.delete(pluginId);
    this.state.delete(pluginId);
    if (version) await version.pool.drain();
  }

  async invoke(call: InvocationRequest): Promise<InvocationResult> {
    const started = performance.now();
    const version = this.versions.get(call.pluginId);
    const refuse = (code: InvocationErrorCode, message: string): InvocationResult =>
      this.finish(call, version, started, { code, message });
    if (!version) return refuse('not_loaded', `plugin ${call.pluginId} is not loaded`);
    if (call.versionDigest !== version.digest) {
      return refuse(
        'version_mismatch',
        `plugin ${call.pluginId} runs version ${version.digest}, not ${call.versionDigest}`,
      );
    }
    const exported = CAPABILITY_EXPORTS[call.capability];
    if (!exported || !version.manifest.capabilities.includes(call.capability)) {
      return refuse(
        'unsupported_operation',
        `plugin ${call.pluginId} has no capability ${call.capability}`,
      );
    }
    const operation = exported.operations.find((op) => op.name === call.operation);
    if (!operation) {
      return refuse(
        'unsupported_operation',
        `capability ${call.capability} has no operation ${call.operation}`,
      );
    }
    const problem = payloadProblem(call, operation.params);
    if (problem) return refuse('invalid_payload', problem);

    const context = {
      pluginId: call.pluginId,
      versionDigest: version.digest,
      projectId: call.projectId,
      eventId: call.eventId,
    };
    const handler = version.hostCalls.forInvocation(context);
    const args = [
      { eventId: call.eventId, settingsJson: JSON.stringify(call.settings) },
      ...operation.params.map((param) => withoutNulls(call.payload[param.name])),
    ];
    const outcome = await version.pool.run(
      {
        eventKey: JSON.stringify([call.projectId, call.eventId]),
        exportName: exported.js,
        operation: operation.js,
        args,
        deadlineMs: Math.min(call.deadlineMs ?? Infinity, this.deps.limits.callTimeoutMs),
        hostCallTimeoutMs: this.deps.limits.hostCallTimeoutMs,
      },
      handler,
    );
    if ('droppedLogs' in outcome) handler.droppedLogs(outcome.droppedLogs);
    return this.finishOutcome(call, version, started, outcome);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.loading.values()].map((p) => p.catch(() => undefined)));
    const versions = [...this.versions.values()];
    this.versions.clear();
    await Promise.all([...versions.map((version) => version.pool.drain()), ...[...this.draining]]);
  }

  private async loadNow(artifact: LoadedArtifact): Promise<void> {
    if (this.closed) throw new PluginLoadError('runner_stopping', 'the runner is stopping');
    const { manifest, pluginId } = artifact;
    if (manifest.runtime !== 'wasm') {
      throw new PluginLoadError(
        'artifact_invalid',
        `plugin ${pluginId} has runtime ${manifest.runtime}; this host runs wasm components`,
      );
    }
    if (!SUPPORTED_WIT_VERSIONS.includes(manifest.wit_version)) {
      throw new PluginLoadError(
        'manifest_invalid',
        `WIT version ${manifest.wit_version} is not supported (supported: ${SUPPORTED_WIT_VERSIONS.join(', ')})`,
      );
    }
    const digest = artifactDigest(artifact.artifact);
    if (digest !== artifact.versionDigest || digest !== manifest.artifact_sha256) {
      throw new PluginLoadError(
        'digest_mismatch',
        `the component's SHA-256 ${digest} is not the version digest ${artifact.versionDigest} and the manifest's ${manifest.artifact_sha256}`,
      );
    }
    const compiled = await compileComponentCached(digest, artifact.artifact, manifest, {
      memoryLimitBytes: this.deps.limits.memoryLimitMb * 1024 * 1024,
      timeoutMs: this.deps.compileTimeoutMs ?? 60_000,
    });
    if (this.closed) throw new PluginLoadError('runner_stopping', 'the runner is stopping');

    const state = this.pluginState(pluginId);
    const pool = new PluginPool(compiled, this.capacity, {
      perPluginLimit: this.deps.limits.perPluginLimit,
      keepWarmMs: this.deps.limits.keepWarmSeconds * 1000,
      queueTimeoutMs: this.deps.limits.queueTimeoutMs,
      thread: {
        logLinesPerCall: this.deps.limits.logLinesPerMinute,
        heapLimitMb: this.deps.threadHeapLimitMb ?? 128,
        eventInstanceIdleMs: this.deps.eventInstanceIdleMs ?? DEFAULT_EVENT_INSTANCE_IDLE_MS,
        spareInstances: this.deps.limits.spareInstances,
      },
      onChange: (idle, busy) =>
        this.observer.poolChanged({ pluginId, runtime: 'wasm', idle, busy }),
    });
    const hostCalls = new PluginHostCalls({
      manifest,
      permittedHosts: artifact.permittedHosts,
      broker: this.deps.broker,
      egress: this.deps.egress,
      scrubber: state.scrubber,
      log: state.log,
      observer: this.observer,
      limits: this.deps.hostCallLimits ?? DEFAULT_HOST_CALL_LIMITS,
    });
    const previous = this.versions.get(pluginId);
    this.versions.set(pluginId, {
      pluginId,
      digest,
      manifest,
      pool,
      hostCalls,
      scrubber: state.scrubber,
    });
    this.deps.logger.info(
      {
        plugin_id: pluginId,
        plugin_version: manifest.version,
        digest,
        compile_ms: Math.round(compiled.compileMs),
        transpiled_from: compiled.transpiledFrom,
        replaced: previous?.digest ?? null,
      },
      previous ? 'wasm plugin reloaded' : 'wasm plugin loaded',
    );
    if (previous) {
      // Calls already accepted finish on the old version's threads; then they stop.
      const drained = previous.pool.drain();
      this.draining.add(drained);
      void drained.finally(() => this.draining.delete(drained));
    }
    await pool.prewarm();
  }

  private pluginState(pluginId: string): PluginState {
    let state = this.state.get(pluginId);
    if (!state) {
      const scrubber = new SecretScrubber();
      state = {
        scrubber,
        log: new PluginLogSink(this.deps.logger, scrubber, {
          lineMaxBytes: this.deps.limits.logLineMaxBytes,
          linesPerMinute: this.deps.limits.logLinesPerMinute,
        }),
      };
      this.state.set(pluginId, state);
    }
    return state;
  }

  private forgetLoad(pluginId: string, load: Promise<void>): void {
    if (this.loading.get(pluginId) === load) this.loading.delete(pluginId);
  }

  private finishOutcome(
    call: InvocationRequest,
    version: PluginVersion,
    started: number,
    outcome: PoolOutcome,
  ): InvocationResult {
    switch (outcome.kind) {
      case 'ok':
        return this.finish(call, version, started, undefined, toJson(outcome.value));
      case 'plugin_error':
        return this.finish(call, version, started, {
          code: 'plugin_error',
          message: outcome.message,
          detail: toJson(outcome.detail),
        });
      case 'trap':
        return this.finish(call, version, started, {
          code: 'trap',
          message: `the plugin trapped: ${outcome.message}`,
        });
      case 'crashed':
        return this.finish(call, version, started, { code: 'trap', message: outcome.message });
      case 'no_export':
        return this.finish(call, version, started, {
          code: 'unsupported_operation',
          message: outcome.message,
        });
      case 'deadline':
        return this.finish(call, version, started, {
          code: 'deadline_exceeded',
          message: `the call ran past its deadline and was stopped`,
        });
      case 'overloaded':
        return this.finish(call, version, started, {
          code: 'overloaded',
          message: outcome.message,
        });
    }
  }

  private finish(
    call: InvocationRequest,
    version: PluginVersion | undefined,
    started: number,
    error: { code: InvocationErrorCode; message: string; detail?: JsonValue } | undefined,
    value: JsonValue = null,
  ): InvocationResult {
    const durationMs = performance.now() - started;
    this.observer.invocationFinished({
      pluginId: call.pluginId,
      runtime: 'wasm',
      capability: call.capability,
      operation: call.operation,
      outcome: error ? error.code : 'ok',
      durationMs,
    });
    // Whatever the guest answers — its value (tags, batches, ...) as well as its error — is
    // scrubbed of every secret value it was given before it leaves the runner.
    const scrubber = version?.scrubber ?? this.state.get(call.pluginId)?.scrubber;
    if (!error)
      return { ok: true, value: scrubber ? scrubber.scrubValue(value) : value, durationMs };
    const scrubbed = {
      code: error.code,
      message: scrubber ? scrubber.scrub(error.message) : error.message,
      ...(error.detail === undefined
        ? {}
        : { detail: scrubber ? scrubber.scrubValue(error.detail) : error.detail }),
    };
    if (version && error.code !== 'plugin_error') {
      this.deps.logger.warn(
        {
          plugin_id: call.pluginId,
          plugin_version: version.manifest.version,
          project_id: call.projectId,
          event_id: call.eventId,
          operation: `${call.capability}.${call.operation}`,
          code: error.code,
          duration_ms: Math.round(durationMs),
        },
        `plugin call failed: ${scrubbed.message}`,
      );
    }
    return { ok: false, error: scrubbed, durationMs };
  }
}

/** Where the payload breaks the operation's parameters (extra names are refused too). */
function payloadProblem(
  call: InvocationRequest,
  params: { name: string; type: Parameters<typeof witTypeMismatch>[0] }[],
): string | undefined {
  if (typeof call.payload !== 'object' || call.payload === null || Array.isArray(call.payload)) {
    return 'payload must be an object of the operation arguments';
  }
  if (typeof call.settings !== 'object' || call.settings === null || Array.isArray(call.settings)) {
    return 'settings must be an object';
  }
  for (const key of Object.keys(call.payload)) {
    if (!params.some((param) => param.name === key)) return `${key} is not an argument`;
  }
  for (const param of params) {
    const problem = witTypeMismatch(param.type, call.payload[param.name], param.name);
    if (problem) return problem;
  }
  return undefined;
}

/** JSON `null` is WIT `none`, which jco's glue reads as `undefined`. */
function withoutNulls(value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

/** A lifted WIT value as JSON: `undefined` (none) is `null`. */
function toJson(value: unknown): JsonValue {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  }
  return value as JsonValue;
}
