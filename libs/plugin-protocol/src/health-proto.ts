import type { ServiceClientConstructor } from '@grpc/grpc-js';
import { loadProtoService, protoFilePath } from './proto-files';

export const HEALTH_PROTO_FILE = 'health.proto';

/** Where `proto/health.proto` lives at run time (see protoFilePath). */
export function healthProtoPath(): string {
  return protoFilePath(HEALTH_PROTO_FILE);
}

/** The `grpc.health.v1.Health` service definition, for servers and clients alike. */
export function loadHealthService(): ServiceClientConstructor {
  return loadProtoService(HEALTH_PROTO_FILE, 'grpc.health.v1.Health');
}
