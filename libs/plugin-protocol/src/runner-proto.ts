import type { ServiceClientConstructor } from '@grpc/grpc-js';
import { loadProtoService } from './proto-files';

export const RUNNER_PROTO_FILE = 'runner.proto';
/** Fully qualified name of the runner API (also its health-check name). */
export const RUNNER_SERVICE_NAME = 'findsvc.runner.v1.PluginRunner';

/** `findsvc.runner.v1.PluginRunner`: served by the plugin runner, called by the findings service. */
export function loadRunnerService(): ServiceClientConstructor {
  return loadProtoService(RUNNER_PROTO_FILE, RUNNER_SERVICE_NAME);
}
