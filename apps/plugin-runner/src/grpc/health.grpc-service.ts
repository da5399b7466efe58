import {
  status as GrpcStatus,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type {
  HealthCheckRequest,
  HealthCheckResponse,
  ServingStatus,
} from '@platform/plugin-protocol';
import type { ServingStatusBoard } from './serving-status-board';

type WatchCall = ServerWritableStream<HealthCheckRequest, HealthCheckResponse>;

/**
 * `grpc.health.v1.Health` over a ServingStatusBoard, per the gRPC health-checking protocol:
 * Check answers NOT_FOUND for an unknown service; Watch streams the current status
 * (SERVICE_UNKNOWN while unknown) and every change until the client cancels or the server
 * shuts down.
 */
export class HealthGrpcService {
  private readonly watches = new Set<WatchCall>();

  constructor(private readonly board: ServingStatusBoard) {}

  implementation(): UntypedServiceImplementation {
    return {
      Check: (
        call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>,
        callback: sendUnaryData<HealthCheckResponse>,
      ) => this.check(call, callback),
      Watch: (call: WatchCall) => this.watch(call),
    };
  }

  /** Ends every open Watch stream (after the board has gone NOT_SERVING) so shutdown drains. */
  endWatches(): void {
    for (const call of this.watches) call.end();
    this.watches.clear();
  }

  private check(
    call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>,
    callback: sendUnaryData<HealthCheckResponse>,
  ): void {
    const service = call.request.service;
    const status = this.board.get(service);
    if (status === undefined) {
      callback({ code: GrpcStatus.NOT_FOUND, details: `unknown service "${service}"` });
      return;
    }
    callback(null, { status });
  }

  private watch(call: WatchCall): void {
    const service = call.request.service;
    let last: ServingStatus = this.board.get(service) ?? 'SERVICE_UNKNOWN';
    call.write({ status: last });
    const unsubscribe = this.board.onChange((changed, status) => {
      if (changed !== service || status === last) return;
      last = status;
      call.write({ status });
    });
    this.watches.add(call);
    const stop = () => {
      unsubscribe();
      this.watches.delete(call);
    };
    call.on('cancelled', stop);
    call.on('close', stop);
    call.on('error', stop);
  }
}
