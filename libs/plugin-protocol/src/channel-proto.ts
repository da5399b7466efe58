import type { ServiceClientConstructor } from '@grpc/grpc-js';
import { loadProtoService } from './proto-files';

export const CHANNEL_PROTO_FILE = 'channel.proto';
/** Fully qualified name of the native channel service (also its health-check name). */
export const CHANNEL_SERVICE_NAME = 'findsvc.plugin.channel.v1.Channel';

/** `findsvc.plugin.channel.v1.Channel`: served by a native channel plugin, called by the runner. */
export function loadChannelService(): ServiceClientConstructor {
  return loadProtoService(CHANNEL_PROTO_FILE, CHANNEL_SERVICE_NAME);
}

/** Fully qualified name of the host-call service the runner serves to native channels. */
export const CHANNEL_HOST_SERVICE_NAME = 'findsvc.plugin.channel.v1.ChannelHost';
/** Environment variable naming the runner's host-call socket inside a native process. */
export const CHANNEL_HOST_SOCKET_ENV = 'FINDSVC_PLUGIN_HOST_SOCKET';
/** Trailer (metadata) key of a refused host call: not_configured, denied, invalid, unavailable. */
export const CHANNEL_HOST_ERROR_CODE_KEY = 'findsvc-error-code';

/** `findsvc.plugin.channel.v1.ChannelHost`: served by the runner, called by a native channel. */
export function loadChannelHostService(): ServiceClientConstructor {
  return loadProtoService(CHANNEL_PROTO_FILE, CHANNEL_HOST_SERVICE_NAME);
}
