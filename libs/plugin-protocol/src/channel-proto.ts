import type { ServiceClientConstructor } from '@grpc/grpc-js';
import { loadProtoService } from './proto-files';

export const CHANNEL_PROTO_FILE = 'channel.proto';
/** Fully qualified name of the native channel service (also its health-check name). */
export const CHANNEL_SERVICE_NAME = 'findsvc.plugin.channel.v1.Channel';

/** `findsvc.plugin.channel.v1.Channel`: served by a native channel plugin, called by the runner. */
export function loadChannelService(): ServiceClientConstructor {
  return loadProtoService(CHANNEL_PROTO_FILE, CHANNEL_SERVICE_NAME);
}
