/** Values of `grpc.health.v1.HealthCheckResponse.ServingStatus` (enums load as strings). */
export type ServingStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

/** `grpc.health.v1.HealthCheckRequest`: `""` asks for the whole server. */
export interface HealthCheckRequest {
  service: string;
}

/** `grpc.health.v1.HealthCheckResponse`. */
export interface HealthCheckResponse {
  status: ServingStatus;
}
