import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import {
  RUNNER_AUTH_METADATA_KEY,
  RUNNER_ERROR_CODE_METADATA_KEY,
  type RunnerErrorCode,
} from '@platform/plugin-protocol';
import { hash, timingSafeEqual } from 'node:crypto';

/** gRPC status of each refusal code (docs/plugins/runner-api.md). */
const STATUS_OF: Record<RunnerErrorCode, GrpcStatus> = {
  unauthenticated: GrpcStatus.UNAUTHENTICATED,
  invalid_request: GrpcStatus.INVALID_ARGUMENT,
  manifest_invalid: GrpcStatus.INVALID_ARGUMENT,
  artifact_invalid: GrpcStatus.INVALID_ARGUMENT,
  signature_invalid: GrpcStatus.PERMISSION_DENIED,
  native_unsigned_source: GrpcStatus.PERMISSION_DENIED,
  native_not_permitted: GrpcStatus.PERMISSION_DENIED,
  native_capability_refused: GrpcStatus.PERMISSION_DENIED,
  digest_mismatch: GrpcStatus.PERMISSION_DENIED,
  runtime_unavailable: GrpcStatus.FAILED_PRECONDITION,
  plugin_start_failed: GrpcStatus.FAILED_PRECONDITION,
  unsupported_imports: GrpcStatus.FAILED_PRECONDITION,
  missing_exports: GrpcStatus.FAILED_PRECONDITION,
  load_refused: GrpcStatus.FAILED_PRECONDITION,
  runner_stopping: GrpcStatus.UNAVAILABLE,
};

/** A refusal as a gRPC error: status by code, the code itself in the trailing metadata. */
export function refusal(code: string, details: string): Partial<ServiceError> {
  const metadata = new Metadata();
  metadata.set(RUNNER_ERROR_CODE_METADATA_KEY, code);
  const status =
    (STATUS_OF as Record<string, GrpcStatus | undefined>)[code] ?? GrpcStatus.FAILED_PRECONDITION;
  return { code: status, details, metadata };
}

/**
 * The shared-secret check of the runner API: `authorization: Bearer <PLUGIN_RUNNER_TOKEN>`,
 * compared in constant time. Without a configured token every call is refused.
 */
export class RunnerApiToken {
  private readonly expected?: Buffer;

  constructor(token: string | undefined) {
    this.expected = token ? hash('sha256', token, 'buffer') : undefined;
  }

  get configured(): boolean {
    return this.expected !== undefined;
  }

  /** undefined when the call may proceed, otherwise the refusal to send. */
  check(metadata: Metadata): Partial<ServiceError> | undefined {
    if (!this.expected) {
      return refusal(
        'unauthenticated',
        'the runner API is disabled: PLUGIN_RUNNER_TOKEN is not set',
      );
    }
    const values = metadata.get(RUNNER_AUTH_METADATA_KEY);
    const header = values.length === 1 && typeof values[0] === 'string' ? values[0] : '';
    const match = /^Bearer (.+)$/.exec(header);
    if (!match || !timingSafeEqual(hash('sha256', match[1] as string, 'buffer'), this.expected)) {
      return refusal('unauthenticated', 'missing or wrong runner API token');
    }
    return undefined;
  }
}
