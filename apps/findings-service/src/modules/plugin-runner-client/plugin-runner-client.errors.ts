import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import {
  RUNNER_ERROR_CODE_METADATA_KEY,
  isRunnerErrorCode,
  type RunnerErrorCode,
} from '@platform/plugin-protocol';

/**
 * Codes of a failed runner call as the findings service sees them: the runner's refusal
 * codes (RUNNER_ERROR_CODES of @platform/plugin-protocol; an unknown one reads as
 * `load_refused`) plus the client's own.
 */
export type PluginRunnerClientErrorCode =
  | RunnerErrorCode
  /** PLUGIN_RUNNER_TOKEN is not set here: nothing was sent. */
  | 'runner_not_configured'
  /** The runner cannot be reached (not running, wrong PLUGIN_RUNNER_URL). */
  | 'runner_unavailable'
  /** No answer within PLUGIN_RUNNER_CLIENT_TIMEOUT_MS. */
  | 'runner_timeout'
  /** The runner answered something the protocol does not allow (e.g. a stream without a result). */
  | 'runner_protocol_error';

/** The plugin-runner-client module's one error class. */
export class PluginRunnerClientError extends Error {
  constructor(
    readonly code: PluginRunnerClientErrorCode,
    message: string,
    /** The gRPC status, when the runner answered with one. */
    readonly grpcStatus?: number,
  ) {
    super(message);
    this.name = 'PluginRunnerClientError';
  }

  static fromServiceError(error: ServiceError): PluginRunnerClientError {
    const value = error.metadata?.get(RUNNER_ERROR_CODE_METADATA_KEY)[0];
    if (typeof value === 'string' && value !== '') {
      const code = isRunnerErrorCode(value) ? value : 'load_refused';
      return new PluginRunnerClientError(code, error.details, error.code);
    }
    const code: PluginRunnerClientErrorCode =
      error.code === GrpcStatus.UNAVAILABLE
        ? 'runner_unavailable'
        : error.code === GrpcStatus.DEADLINE_EXCEEDED
          ? 'runner_timeout'
          : error.code === GrpcStatus.UNAUTHENTICATED
            ? 'unauthenticated'
            : 'runner_protocol_error';
    return new PluginRunnerClientError(code, error.details || error.message, error.code);
  }
}
