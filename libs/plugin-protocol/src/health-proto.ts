import {
  loadPackageDefinition,
  type GrpcObject,
  type ServiceClientConstructor,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const HEALTH_PROTO_FILE = 'health.proto';

/**
 * Where `proto/health.proto` lives at run time. From source (Jest, @swc-node/register) this
 * module and `proto/` sit side by side in `libs/plugin-protocol/src/`; in a webpack bundle
 * everything is inlined into the entry file, and the build copies the proto files next to it
 * as `proto/` (`protoAssets` in tools/build/webpack-app.js).
 */
export function healthProtoPath(): string {
  const bases = [__dirname];
  const entry = require.main?.filename;
  if (entry) bases.push(dirname(entry));
  const candidates = bases.map((base) => join(base, 'proto', HEALTH_PROTO_FILE));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(`${HEALTH_PROTO_FILE} not found; looked in ${candidates.join(', ')}`);
  }
  return found;
}

/** Enum values are strings (`SERVING`), field names as written in the proto file. */
export const PROTO_LOADER_OPTIONS = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

/** The `grpc.health.v1.Health` service definition, for servers and clients alike. */
export function loadHealthService(): ServiceClientConstructor {
  const definition = loadSync(healthProtoPath(), PROTO_LOADER_OPTIONS);
  const root = loadPackageDefinition(definition);
  const v1 = ((root['grpc'] as GrpcObject)['health'] as GrpcObject)['v1'] as GrpcObject;
  return v1['Health'] as ServiceClientConstructor;
}
