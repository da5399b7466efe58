import {
  Server,
  ServerCredentials,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { loadHealthService } from '@platform/plugin-protocol';
import { MAX_LOAD_MESSAGE_BYTES } from './load-admission';
import { HealthGrpcService } from './health.grpc-service';
import type { ServingStatusBoard } from './serving-status-board';

export interface RunningGrpcServer {
  /** Bound port (differs from the configured one when that was 0). */
  port: number;
  /** Ends Watch streams, waits up to `graceMs` for calls in flight, then cuts the rest. */
  shutdown(graceMs: number): Promise<void>;
}

function address(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** A service served next to health (the runner API). */
export interface GrpcServiceRegistration {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

/** Starts the runner's gRPC listener (plaintext; bind to loopback or a private network). */
export async function startGrpcServer(
  host: string,
  port: number,
  board: ServingStatusBoard,
  services: GrpcServiceRegistration[] = [],
): Promise<RunningGrpcServer> {
  // A Load carries the artifact (a WebAssembly component is ~12 MB; gRPC's default is 4 MB).
  const server = new Server({ 'grpc.max_receive_message_length': MAX_LOAD_MESSAGE_BYTES });
  const health = new HealthGrpcService(board);
  server.addService(loadHealthService().service, health.implementation());
  for (const service of services) server.addService(service.definition, service.implementation);
  const bound = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address(host, port), ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    );
  });
  return {
    port: bound,
    shutdown: (graceMs) =>
      new Promise<void>((resolve) => {
        health.endWatches();
        const deadline = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(deadline);
          resolve();
        });
      }),
  };
}
