// @platform/plugin-protocol: the gRPC contract of the plugin runner (proto files in proto/),
// their loader and typed messages, for the runner and its clients.
export {
  HEALTH_PROTO_FILE,
  PROTO_LOADER_OPTIONS,
  healthProtoPath,
  loadHealthService,
} from './health-proto';
export type { HealthCheckRequest, HealthCheckResponse, ServingStatus } from './health.types';
