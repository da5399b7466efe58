// @platform/plugin-protocol: the gRPC contract of the plugin runner (proto files in proto/),
// their loader and typed messages, for the runner and its clients.
export { PROTO_LOADER_OPTIONS, loadProtoService, protoFilePath } from './proto-files';
export { HEALTH_PROTO_FILE, healthProtoPath, loadHealthService } from './health-proto';
export type { HealthCheckRequest, HealthCheckResponse, ServingStatus } from './health.types';
export {
  CHANNEL_HOST_ERROR_CODE_KEY,
  CHANNEL_HOST_SERVICE_NAME,
  CHANNEL_HOST_SOCKET_ENV,
  CHANNEL_PROTO_FILE,
  CHANNEL_SERVICE_NAME,
  loadChannelHostService,
  loadChannelService,
} from './channel-proto';
export type {
  DeliverOutcome,
  DeliverRequest,
  DeliverResponse,
  DeliveryContext,
  SendEmailRequest,
  SendEmailResponse,
  ShutdownRequest,
  ShutdownResponse,
} from './channel.types';
export { RUNNER_PROTO_FILE, RUNNER_SERVICE_NAME, loadRunnerService } from './runner-proto';
export { HOST_CALL_ERROR_CODES } from './runner.types';
export type {
  CveAnswer,
  EmailAnswer,
  EventContext,
  GetProjectSecretCall,
  GetSecretCall,
  HostCallError,
  HostCallErrorCode,
  HostCallReply,
  HostCallRequest,
  InvokeClientMessage,
  InvokeResult,
  InvokeServerMessage,
  InvokeStart,
  IsCveKnownCall,
  LoadRequest,
  LoadResponse,
  PluginSource,
  SecretAnswer,
  SendEmailCall,
  UnloadRequest,
  UnloadResponse,
} from './runner.types';
export {
  RUNNER_AUTH_METADATA_KEY,
  RUNNER_ERROR_CODES,
  RUNNER_ERROR_CODE_METADATA_KEY,
  isRunnerErrorCode,
} from './runner-errors';
export type { RunnerErrorCode } from './runner-errors';
export {
  CHANNEL_PROTOCOL_VERSION,
  NATIVE_CORE_PROTOCOL_VERSION,
  NATIVE_MAGIC_COOKIE_KEY,
  NATIVE_MAGIC_COOKIE_VALUE,
  NATIVE_PROTOCOL_VERSIONS_KEY,
  NATIVE_SOCKET_DIR_KEY,
  formatHandshakeLine,
  parseHandshakeLine,
} from './native-handshake';
export type { NativeHandshake } from './native-handshake';
