import type { PluginCapability, PluginManifest, PluginRuntime } from '@platform/plugin-sdk';

/**
 * The contract between the runner's gRPC API (which the findings service calls) and the two
 * execution tiers: `WasmPluginHost` (tier 1, src/wasm/) and `NativePluginHost` (tier 2). The
 * gRPC service dispatches on `LoadedArtifact.runtime` / the loaded plugin's runtime.
 *
 * Rules every implementation keeps:
 * - The event context (plugin, version, project, event) comes from the request, never from
 *   the guest; host calls are answered for that context only.
 * - `invoke` answers every failure as an `InvocationResult` with a code (it rejects only on a
 *   programming error of the caller, e.g. a non-JSON payload object).
 * - `load` of a plugin id that is already loaded is a reload: new calls go to the new artifact,
 *   calls already accepted finish on the old one, then the old one is released.
 */
export interface PluginHost {
  load(artifact: LoadedArtifact): Promise<void>;
  /** Stops accepting calls for the plugin; calls in flight finish, then it is released. */
  unload(pluginId: string): Promise<void>;
  invoke(call: InvocationRequest): Promise<InvocationResult>;
  /** Releases every plugin (in-flight calls finish first). */
  close(): Promise<void>;
}

/**
 * A refused `load`, with a stable code the runner API passes to the findings service
 * (`findsvc-error-code`, RUNNER_ERROR_CODES of @platform/plugin-protocol; a host may use codes
 * of its own, clients read unknown ones as `load_refused`).
 */
export class PluginLoadError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PluginLoadError';
  }
}

export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An artifact the findings service has verified (signature, revocation, digest) and loads. */
export interface LoadedArtifact {
  /** The installed plugin's id in the findings service (one installation = one id). */
  pluginId: string;
  /** Parsed and validated manifest (`validateManifest` of @platform/plugin-sdk). */
  manifest: PluginManifest;
  /** Lower-case hex SHA-256 of `artifact`; equals `manifest.artifact_sha256`. */
  versionDigest: string;
  /** The component (`wasm`) or the executable (`native`). Re-hashed by the host at load. */
  artifact: Uint8Array;
  /**
   * Hosts `http-request` may reach: the manifest's `allowed_hosts` plus the hosts of the
   * `url` settings an administrator entered. Computed by the findings service.
   */
  permittedHosts: string[];
  /** The catalog source: signed (has a public key) and carrying `allows_native`. */
  source: { signed: boolean; allowsNative: boolean };
}

/** One call of one exported operation, for one event of one project. */
export interface InvocationRequest {
  pluginId: string;
  /** Digest of the version the caller means; a call for another version is refused. */
  versionDigest: string;
  projectId: string;
  eventId: string;
  capability: PluginCapability;
  /** Operation of the capability, as in the WIT world: `enrich`, `poll`, `create-task`, ... */
  operation: string;
  /** The operation's arguments by name (WIT names, e.g. `{ "finding": {...} }`). */
  payload: { [name: string]: JsonValue };
  /** Effective non-secret settings for the event's project (installation + project overrides). */
  settings: { [name: string]: JsonValue };
  /** Deadline of this call in ms; the host's default applies when absent. Capped by the host. */
  deadlineMs?: number;
  /**
   * Same on every retry of one logical call. Required by a notification channel's `deliver`:
   * a key that was delivered is answered from memory, not delivered twice.
   */
  idempotencyKey?: string;
  /**
   * The plugin's secret-marked settings for this event, attached by the findings service
   * (`InvokeStart.secrets_attached`): a native channel gets them without a `get-secret` /
   * `get-project-secret` round trip. Absent: the host asks the broker as before.
   */
  attachedSecrets?: { installation: Record<string, string>; project: Record<string, string> };
}

export const INVOCATION_ERROR_CODES = [
  /** No plugin with this id is loaded (or it is being unloaded). */
  'not_loaded',
  /** `versionDigest` is not the loaded version. */
  'version_mismatch',
  /** The plugin does not declare the capability, or the capability has no such operation. */
  'unsupported_operation',
  /** The payload does not match the operation's arguments. */
  'invalid_payload',
  /** The call ran past its deadline and was stopped. */
  'deadline_exceeded',
  /** The guest trapped (out of memory, unreachable, a throw it did not turn into an error). */
  'trap',
  /** The guest answered with its own error result (e.g. a finding source that cannot poll). */
  'plugin_error',
  /** No capacity: the per-plugin or global limit was reached and the queue wait ran out. */
  'overloaded',
  /** Refused by policy: e.g. a ticketing provider on the native tier. */
  'refused',
  /** The plugin's answer is larger than the runner passes on (grpc/answer-limit.ts). */
  'answer_too_large',
] as const;
export type InvocationErrorCode = (typeof INVOCATION_ERROR_CODES)[number];

export type InvocationResult =
  | { ok: true; value: JsonValue; durationMs: number }
  | {
      ok: false;
      /** `message` is scrubbed of every secret value the plugin has been given. */
      error: { code: InvocationErrorCode; message: string; detail?: JsonValue };
      durationMs: number;
    };

/** The event context of a host call, taken from the invocation (never from the guest). */
export interface HostCallContext {
  pluginId: string;
  versionDigest: string;
  projectId: string;
  eventId: string;
}

/**
 * Host calls the runner cannot answer itself; implemented over the findings stream (N3's
 * gRPC client side). The runner has already checked what it can (the name is a secret-marked
 * setting of this plugin, sizes, rates) and scrubs every value it receives from logs.
 * A rejection is reported to the guest as `unavailable`.
 */
export interface HostCallBroker {
  /** The plugin's own installation secret `name`; `undefined` when not set. */
  getSecret(context: HostCallContext, name: string): Promise<string | undefined>;
  /** The value of secret `name` for the event's project (`context.projectId`). */
  getProjectSecret(context: HostCallContext, name: string): Promise<string | undefined>;
  /**
   * Sent by the service to the recipients configured for the event's project; resolves to
   * the accepted message's id when the service names one.
   */
  sendEmail(context: HostCallContext, message: OutgoingEmail): Promise<string | void>;
  /** Of the given CVE identifiers, those the service knows (identifiers only). */
  isCveKnown(context: HostCallContext, cveIds: string[]): Promise<string[]>;
}

export interface OutgoingEmail {
  subject: string;
  body: string;
}

/** Names of the host calls (WIT names), for metrics and denials. */
export const HOST_CALL_NAMES = [
  'http-request',
  'get-secret',
  'get-project-secret',
  'send-email',
  'is-cve-known',
  'log',
] as const;
export type HostCallName = (typeof HOST_CALL_NAMES)[number];

/** Outcome label of one invocation: `ok` or the error code. */
export type InvocationOutcome = 'ok' | InvocationErrorCode;

/**
 * What a host reports for the runner's metrics (implemented once, by the metrics wiring, for
 * both tiers). Every method is synchronous and must not throw.
 */
export interface PluginHostObserver {
  invocationFinished(event: {
    pluginId: string;
    runtime: PluginRuntime;
    capability: PluginCapability;
    operation: string;
    outcome: InvocationOutcome;
    durationMs: number;
  }): void;
  hostCallDenied(event: { pluginId: string; call: HostCallName; reason: string }): void;
  /** Current pool of a plugin: warm idle instances and busy ones. */
  poolChanged(event: {
    pluginId: string;
    runtime: PluginRuntime;
    idle: number;
    busy: number;
  }): void;
}

/** An observer that records nothing (tests, tools). */
export const NO_PLUGIN_HOST_OBSERVER: PluginHostObserver = {
  invocationFinished: () => undefined,
  hostCallDenied: () => undefined,
  poolChanged: () => undefined,
};
