import {
  loadPackageDefinition,
  type GrpcObject,
  type ServiceClientConstructor,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where `proto/<file>` lives at run time. From source (Jest, @swc-node/register) this module
 * and `proto/` sit side by side in `libs/plugin-protocol/src/`; in a webpack bundle
 * everything is inlined into the entry file, and the build copies the proto files next to it
 * as `proto/` (`protoAssets` in tools/build/webpack-app.js).
 */
export function protoFilePath(file: string): string {
  const bases = [__dirname];
  const entry = require.main?.filename;
  if (entry) bases.push(dirname(entry));
  const candidates = bases.map((base) => join(base, 'proto', file));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(`${file} not found; looked in ${candidates.join(', ')}`);
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

const services = new Map<string, ServiceClientConstructor>();

/**
 * The service `qualifiedName` (`package.Service`) of `proto/<file>`, loaded once per
 * process, for servers and clients alike.
 */
export function loadProtoService(file: string, qualifiedName: string): ServiceClientConstructor {
  const key = `${file}#${qualifiedName}`;
  const cached = services.get(key);
  if (cached) return cached;
  const definition = loadSync(protoFilePath(file), PROTO_LOADER_OPTIONS);
  let node: GrpcObject | ServiceClientConstructor = loadPackageDefinition(definition);
  for (const part of qualifiedName.split('.')) {
    const next = (node as GrpcObject)[part];
    if (next === undefined) throw new Error(`${qualifiedName} is not defined in ${file}`);
    node = next as GrpcObject | ServiceClientConstructor;
  }
  services.set(key, node as ServiceClientConstructor);
  return node as ServiceClientConstructor;
}
