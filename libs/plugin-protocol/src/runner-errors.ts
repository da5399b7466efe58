/** Metadata key of the runner API token: `authorization: Bearer <PLUGIN_RUNNER_TOKEN>`. */
export const RUNNER_AUTH_METADATA_KEY = 'authorization';

/** Trailing metadata key holding the machine-readable code of a refused runner API call. */
export const RUNNER_ERROR_CODE_METADATA_KEY = 'findsvc-error-code';

/**
 * Codes of refused runner API calls (docs/plugins/runner-api.md) in the trailing metadata
 * `findsvc-error-code`. The gRPC status code says the category; this says what exactly.
 * A host may add codes of its own (a WebAssembly component's import check, ...): clients
 * treat an unknown code as `load_refused`.
 */
export const RUNNER_ERROR_CODES = [
  /** No or wrong token (UNAUTHENTICATED). */
  'unauthenticated',
  /** The request or stream is malformed (INVALID_ARGUMENT). */
  'invalid_request',
  /** The manifest cannot be read or does not describe this plugin version (INVALID_ARGUMENT). */
  'manifest_invalid',
  /** The signature does not verify with the source's public key (PERMISSION_DENIED). */
  'signature_invalid',
  /** Native execution from an unsigned source (PERMISSION_DENIED). */
  'native_unsigned_source',
  /** Native execution from a source without `allows_native` (PERMISSION_DENIED). */
  'native_not_permitted',
  /** A ticketing provider, or any capability but a notification channel, as native (PERMISSION_DENIED). */
  'native_capability_refused',
  /** The artifact's sha256 differs from the signed manifest or the installed digest (PERMISSION_DENIED). */
  'digest_mismatch',
  /** The artifact is not something this runtime can run (INVALID_ARGUMENT). */
  'artifact_invalid',
  /** No host for this runtime in this runner (FAILED_PRECONDITION). */
  'runtime_unavailable',
  /** The plugin process did not start, handshake or pass its health check (FAILED_PRECONDITION). */
  'plugin_start_failed',
  /** The component imports something other than the host interface, e.g. wasi:* (FAILED_PRECONDITION). */
  'unsupported_imports',
  /** The component lacks an export its manifest's capabilities declare (FAILED_PRECONDITION). */
  'missing_exports',
  /** Any other refusal of a host (FAILED_PRECONDITION). */
  'load_refused',
  /** The runner is shutting down (UNAVAILABLE). */
  'runner_stopping',
] as const;

export type RunnerErrorCode = (typeof RUNNER_ERROR_CODES)[number];

export function isRunnerErrorCode(value: unknown): value is RunnerErrorCode {
  return typeof value === 'string' && (RUNNER_ERROR_CODES as readonly string[]).includes(value);
}
